import type { Orm } from '../database'

/** The query-builder entry points the services call on `orm` (drizzle's, and the three openPgDb adds). */
const ORM_METHODS = ['select', 'selectDistinct', 'insert', 'update', 'delete', 'transaction', 'execute', 'batch', 'run', 'all'] as const

/**
 * Makes sure PostgreSQL's drizzle may be used where drizzle on SQLite is expected (database.ts `Orm`), which every
 * query is written against once for both databases. drizzle has no type common to its dialects' query builders,
 * so this is where the two meet. The tables it is given are built by the same definitions as the SQLite ones
 * (db/tables/, db/pg/kit.ts); what is left to check is that drizzle offers every entry point the services call,
 * when the database opens, rather than midway through a query. The API and share-page suites run on PostgreSQL
 * to hold up the rest (the builders' run-time behaviour).
 */
export function assertSqliteShapedOrm(orm: object): asserts orm is Orm {
  const missing = ORM_METHODS.filter((method) => typeof (orm as Record<string, unknown>)[method] !== 'function')
  if (missing.length > 0) throw new Error(`drizzle on PostgreSQL lacks ${missing.join(', ')}`)
}
