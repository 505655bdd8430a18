import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { activeDialect } from './dialect'

/**
 * The larger of two values, in SQL both databases run (SQLite's two-argument `max` is PostgreSQL's `greatest`).
 * Used for "a new updated_at, never earlier than the last one + 1": `greaterOf(now, col + 1)`.
 */
export const greaterOf = (a: unknown, b: SQLWrapper | SQL): SQL => sql`CASE WHEN ${a} > ${b} THEN ${a} ELSE ${b} END`

/**
 * `text` for sorting and comparing without regard to ASCII case, as SQLite's NOCASE does: PostgreSQL has no
 * NOCASE, so there it is `lower(text)` compared byte by byte (the "C" collation), which orders the same way.
 */
export const caseless = (text: SQL): SQL => (activeDialect() === 'postgres' ? sql`lower(${text}) COLLATE "C"` : sql`${text} COLLATE NOCASE`)

/** `text LIKE pattern` without regard to ASCII case (SQLite's LIKE; PostgreSQL's ILIKE), `\` escaping. */
export const likeCaseless = (text: SQLWrapper, pattern: string): SQL =>
  activeDialect() === 'postgres' ? sql`${text} ILIKE ${pattern} ESCAPE '\\'` : sql`${text} LIKE ${pattern} ESCAPE '\\'`

/** 32 random lowercase hex digits, new for each row (webhook message ids). */
export const randomHexSql = (): string =>
  activeDialect() === 'postgres' ? `replace(gen_random_uuid()::text, '-', '')` : 'lower(hex(randomblob(16)))'
