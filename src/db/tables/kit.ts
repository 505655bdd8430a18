import { type SQLWrapper, sql } from 'drizzle-orm'
import { blob, check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * What a table definition (this folder) builds its tables with: the kinds of column pdfshare uses, named once for
 * both databases, and the table, key and index builders. A definition is a function of a kit, run once with this
 * one (SQLite: db/schema.ts) and once with PostgreSQL's (db/pg/kit.ts, db/pg/schema.ts), so the two schemas are
 * one definition built twice rather than twins kept equal by hand.
 *
 * These are SQLite's builders, and their types are the ones every query is written against (`Tables`,
 * db/tables/index.ts). PostgreSQL's kit gives the same functions with its own builders behind them. A definition
 * calls only what both dialects' builders have under the same name (`notNull`, `default`, `primaryKey()` without
 * options, `unique`, `references` with `onDelete`, `index(…).on`, `where`); test/db/pg-schema.test.ts compares
 * the two built schemas column by column.
 *
 * The kinds, and what each is on SQLite and on PostgreSQL:
 * - `text`: TEXT on both;
 * - `integer`: a count that stays small (views, attempts, pages, a status code, a file count): INTEGER, `integer`;
 * - `bigint`: a number that may pass 2^31 (a byte size, a quota in bytes, a sum of milliseconds): INTEGER,
 *   `bigint` read as a JavaScript number (exact below 2^53);
 * - `millis`: a time, milliseconds since the epoch (UTC; the API writes ISO 8601): a `bigint`;
 * - `boolean`: INTEGER 0/1 read as a boolean, `boolean`;
 * - `bytes`: BLOB, `bytea`, read as a Buffer either way;
 * - `seq()`: the `seq` key, in insertion order and never reused: INTEGER PRIMARY KEY AUTOINCREMENT (without
 *   AUTOINCREMENT when `autoIncrement: false`: the rowid, no sequence table written on every insert), a `bigint`
 *   identity column `by default` (a copy from an embedded install may keep its values). Concurrent PostgreSQL
 *   transactions may commit identities out of order: `seq` is a creation order, not a commit order;
 * - `check(name, condition)`: a named CHECK constraint of the table, on both;
 * - `isTrue(column)`: a boolean column as a condition (a partial index's `where`): `column = 1`, `column`.
 */
export const sqliteKit = {
  table: sqliteTable,
  text: <Name extends string>(name: Name) => text(name),
  integer: <Name extends string>(name: Name) => integer(name),
  bigint: <Name extends string>(name: Name) => integer(name),
  millis: <Name extends string>(name: Name) => integer(name),
  boolean: <Name extends string>(name: Name) => integer(name, { mode: 'boolean' }),
  bytes: <Name extends string>(name: Name) => blob(name, { mode: 'buffer' }),
  seq: (options: { autoIncrement: boolean } = { autoIncrement: true }) => integer('seq').primaryKey(options),
  primaryKey,
  index,
  uniqueIndex,
  check,
  isTrue: (column: SQLWrapper) => sql`${column} = 1`,
}

/** The kit a definition takes: SQLite's, by its types (see above). */
export type Kit = typeof sqliteKit
