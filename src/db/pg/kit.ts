import { type SQLWrapper, sql } from 'drizzle-orm'
import { bigint, boolean, check, customType, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import type { Kit } from '../tables/kit'

/** SQLite's BLOB: bytes, read as a Buffer like drizzle's SQLite `blob({ mode: 'buffer' })`. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
})

const bigNumber = (name: string) => bigint(name, { mode: 'number' })

/** PostgreSQL's builders behind the kit's functions (db/tables/kit.ts says what each kind is on both databases). */
const builders = {
  table: pgTable,
  text: (name: string) => text(name),
  integer: (name: string) => integer(name),
  bigint: bigNumber,
  millis: bigNumber,
  boolean: (name: string) => boolean(name),
  bytes: (name: string) => bytea(name),
  // One kind of key whether or not SQLite's has AUTOINCREMENT: an identity column costs nothing per insert here.
  seq: () => bigNumber('seq').primaryKey().generatedByDefaultAsIdentity(),
  primaryKey,
  index,
  uniqueIndex,
  check,
  // A boolean is its own condition (SQLite's is `= 1`).
  isTrue: (column: SQLWrapper) => sql`${column}`,
} satisfies Record<keyof Kit, unknown>

/**
 * The kit the PostgreSQL tables are built with, typed as SQLite's: the tables it builds are used where the
 * SQLite ones' types are expected (`Tables`), and that holds because both are built by the same definitions'
 * calls, which are the builders' common ones. drizzle has no type common to its dialects, so this is where the
 * two tables' types meet (their query builders meet in sqlite-shaped-orm.ts); test/db/pg-schema.test.ts compares
 * the two built schemas column by column.
 */
export const pgKit = builders as unknown as Kit
