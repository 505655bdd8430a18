import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import type { LibSQLDatabase } from 'drizzle-orm/libsql'
import type { HotSql, SqlArg, SqlStatement } from './hot-sql'
import { type RowReader, rowReader } from './rows'
import { sqliteTables } from './schema'
import type { Tables } from './tables'

/** Which database an install runs on. */
export type Dialect = 'sqlite' | 'postgres'

/** `postgres://` and `postgresql://` URLs are PostgreSQL; everything else is libSQL (a file or a libSQL server). */
export const dialectOf = (url: string): Dialect => (/^postgres(?:ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite')

/**
 * The tables every query is built from: the SQLite ones (./schema), whose types every query is written against.
 * A database opened on PostgreSQL carries its own (./pg/schema) under the same names, built from the same
 * definitions (./tables): every query, its SQL and its row types are written once, for both.
 */
export { sqliteTables }
export type { Tables }

/** Readers of the files' and links' rows that the per-request statements select (core/files/file-rows.ts). */
export type HotRows = { files: RowReader<Tables['files']>; links: RowReader<Tables['links']> }

/** The row readers of a database's own tables (each dialect's columns read their own driver's values), made once when it opens. */
export const hotRowsOf = (tables: Tables): HotRows => ({ files: rowReader(tables.files), links: rowReader(tables.links) })

/** drizzle on the database, typed on the SQLite tables (see Tables). */
export type Orm = LibSQLDatabase<Tables>

/** Runs plain statements (`?` placeholders) and gives each one's rows as arrays of values. */
export type PlainQuery = (sql: string, args?: SqlArg[]) => Promise<unknown[][]>

/** The few pieces of SQL that cannot be written the same way for both databases. */
export type Portable = {
  /**
   * `text` for sorting and comparing without regard to ASCII case, as SQLite's NOCASE does: PostgreSQL has no
   * NOCASE, so there it is `lower(text)` compared byte by byte (the "C" collation), which orders the same way.
   */
  caseless(text: SQL): SQL
  /** `text LIKE pattern` without regard to ASCII case (SQLite's LIKE; PostgreSQL's ILIKE), `\` escaping. */
  likeCaseless(text: SQLWrapper, pattern: string): SQL
  /** An SQL expression of 32 random lowercase hex digits, new for each row (webhook message ids). */
  randomHex: string
  /**
   * The statements that lock a link's row until the commit, so that writers on one link take turns: where
   * several transactions run at once (PostgreSQL, READ COMMITTED), a statement that counts rows (the
   * per-address bound) would otherwise not see another's uncommitted ones. None on SQLite, where one writer
   * runs at a time.
   */
  lockLink(linkId: string): SqlStatement[]
}

/**
 * An opened metadata database: what it is, its tables, drizzle on it, its hot statements and its portable SQL
 * pieces, all in one value that the context carries. Nothing about a database is process-wide: two can be
 * open in one process (`database migrate` reads one and writes the other).
 */
export type Database = {
  dialect: Dialect
  /**
   * Whether several instances may share this database (PostgreSQL): then limits, counters and leases are
   * kept in it, the start-up clean-ups leave young leftovers alone, and nothing is cached across requests.
   * Decided once, here.
   */
  shared: boolean
  tables: Tables
  orm: Orm
  /** Kept prepared statements for the per-request reads and writes, and the group commits (hot-sql.ts). */
  hot: HotSql
  rows: HotRows
  portable: Portable
  /** Applies the pending migrations of this dialect; returns how many ran. */
  migrate: () => Promise<number>
  /**
   * Runs `work` in one transaction that holds the database's write lock (SQLite) or an exclusive lock on
   * `meta` (PostgreSQL), so two processes starting together (a server and a CLI command, two instances)
   * take turns. Committed when `work` returns, undone when it throws.
   */
  exclusive: <T>(work: (query: PlainQuery) => Promise<T>) => Promise<T>
  close: () => void
}

/** The portable pieces on SQLite. */
export const sqlitePortable: Portable = {
  caseless: (text) => sql`${text} COLLATE NOCASE`,
  likeCaseless: (text, pattern) => sql`${text} LIKE ${pattern} ESCAPE '\\'`,
  randomHex: 'lower(hex(randomblob(16)))',
  lockLink: () => [],
}

/**
 * The larger of two values, in SQL both databases run (SQLite's two-argument `max` is PostgreSQL's `greatest`).
 * Used for "a new updated_at, never earlier than the last one + 1": `greaterOf(now, col + 1)`.
 */
export const greaterOf = (a: unknown, b: SQLWrapper | SQL): SQL => sql`CASE WHEN ${a} > ${b} THEN ${a} ELSE ${b} END`

/**
 * A plain statement (`?` placeholders, as the hot statements are written) as drizzle SQL with its values bound,
 * so a statement is written once and runs both ways.
 */
export function drizzleSqlOf(text: string, args: SqlArg[]): SQL {
  const parts = text.split('?')
  if (parts.length !== args.length + 1) throw new Error('a statement needs one value per ?')
  return sql.join(parts.flatMap((part, i) => (i === 0 ? [sql.raw(part)] : [sql`${args[i - 1]}`, sql.raw(part)])))
}
