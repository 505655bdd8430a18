-- Visitor ids compare byte by byte (the "C" collation), as in SQLite: the per-address bound counts one address's
-- marks as a range of ids (`tag.` < visitor < `tag/`), which a linguistic collation would not keep together, and
-- the primary key's index serves that range only when the column itself has the collation the query compares in.
-- drizzle-kit does not model collations, so this migration is written by hand.
ALTER TABLE "view_marks" ALTER COLUMN "visitor" SET DATA TYPE text COLLATE "C";
