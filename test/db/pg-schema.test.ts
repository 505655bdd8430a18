/**
 * The PostgreSQL side of the schema: its tables, built from the same definitions as the SQLite ones (db/tables/),
 * agree with them column by column; drizzle-kit sees every table of both; its migrations are embedded, and on a
 * real throwaway cluster (Debian's postgresql-15, scripts/support/postgres.ts) they apply once, also when two
 * runners race, and give the tables the schema describes.
 */
import { afterEach, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { eq, getTableName, is, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sql'
import { integer, getTableConfig as pgConfig, PgTable, pgTable, text } from 'drizzle-orm/pg-core'
import { SQLiteTable } from 'drizzle-orm/sqlite-core'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Orm } from '../../src/db/database'
import { openPgDb } from '../../src/db/pg/client'
import { pgKit } from '../../src/db/pg/kit'
import { migratePg } from '../../src/db/pg/migrate'
import { embeddedPgMigrations } from '../../src/db/pg/migrations'
import * as pgSchema from '../../src/db/pg/schema'
import { assertSqliteShapedOrm } from '../../src/db/pg/sqlite-shaped-orm'
import * as sqliteSchema from '../../src/db/schema'
import { tablesOf } from '../../src/db/tables'
import type { Kit } from '../../src/db/tables/kit'
import { PG_MIGRATIONS_DIR, readJournal, renderMigrationIndex } from '../../scripts/embed-migrations'
import { freshPostgres } from '../../scripts/support/postgres'
import { schemaDifferences, shapeOf } from '../support/table-shape'

const { sqliteTables } = sqliteSchema
const { pgTables } = pgSchema
/** The PostgreSQL tables as what they are at run time (typed as the SQLite ones, which the queries are written against). */
const builtPgTables = Object.values(pgTables as Record<string, unknown>).filter((table): table is PgTable => is(table, PgTable))

test('the PostgreSQL tables, built from the definitions the SQLite ones are, agree with them: columns, value types, keys, uniques, indexes, references', () => {
  expect(Object.keys(pgTables).length).toBe(39)
  expect(schemaDifferences(sqliteTables, pgTables)).toEqual([])
  expect(builtPgTables.length).toBe(39)
  for (const table of Object.values(sqliteTables)) expect(is(table, SQLiteTable)).toBe(true)
})

test('the comparison sees what a PostgreSQL builder of another kind would change (it is not vacuous)', () => {
  // A kit whose booleans come back as text, and whose seq key has no default: every table using them differs.
  const planted: Kit = { ...pgKit, boolean: pgKit.text as unknown as Kit['boolean'], seq: () => pgKit.integer('seq').primaryKey() as never }
  const differences = schemaDifferences(sqliteTables, tablesOf(planted))
  expect(differences.find((line) => line.startsWith('users: '))).toContain('"is_admin":{"dataType":"string"')
  expect(differences.find((line) => line.startsWith('files: '))).toContain(
    '"seq":{"dataType":"number","notNull":true,"hasDefault":false,"optional":false',
  )
  const { meta: _meta, ...withoutMeta } = pgTables
  expect(schemaDifferences(sqliteTables, withoutMeta)).toEqual(['meta: only on SQLite'])
  // And each part of a table's shape: nullability, a default, a unique, another table altogether.
  const meta = shapeOf(sqliteTables.meta)
  const nullableValue = pgTable('meta', { key: text('key').primaryKey(), value: text('value') })
  const withDefault = pgTable('meta', { key: text('key').primaryKey(), value: text('value').notNull().default('') })
  const extraUnique = pgTable('meta', { key: text('key').primaryKey(), value: text('value').notNull().unique() })
  const numberValue = pgTable('meta', { key: text('key').primaryKey(), value: integer('value').notNull() })
  for (const table of [nullableValue, withDefault, extraUnique, numberValue]) expect(shapeOf(table)).not.toEqual(meta)
  expect(shapeOf(pgTables.links)).not.toEqual(shapeOf(sqliteTables.files))
})

test('drizzle-kit sees every table: each schema file exports every table of its map, by name', () => {
  for (const [module, tables] of [
    [sqliteSchema, sqliteTables],
    [pgSchema, pgTables],
  ] as const) {
    const exported = Object.entries(module).filter(([, value]) => is(value, SQLiteTable) || is(value, PgTable))
    expect(exported.map(([name]) => name).sort()).toEqual(Object.keys(tables).sort())
    for (const [name, table] of exported) expect(table).toBe(tables[name as keyof typeof tables])
  }
})

test('a PostgreSQL database carries those tables and a drizzle with every entry point the services call', () => {
  const db = openPgDb('postgres://nobody@127.0.0.1:1/unused') // connects on its first query, which never comes
  try {
    expect(db.tables).toBe(pgTables)
    expect(() => assertSqliteShapedOrm(db.orm)).not.toThrow()
    const withoutBatch = new Proxy(db.orm, {
      get: (orm, name) => (name === 'batch' || name === 'run' ? undefined : Reflect.get(orm, name)),
    })
    expect(() => assertSqliteShapedOrm(withoutBatch)).toThrow('drizzle on PostgreSQL lacks batch, run')
  } finally {
    db.close()
  }
})

test('the embedded PostgreSQL migration index matches the drizzle-kit journal (run `bun run db:generate` if not)', () => {
  const journal = readJournal(PG_MIGRATIONS_DIR)
  expect(readFileSync(join(PG_MIGRATIONS_DIR, 'index.ts'), 'utf8')).toBe(renderMigrationIndex(journal, 'embeddedPgMigrations'))
  expect(embeddedPgMigrations.map((m) => m.tag)).toEqual(journal.entries.map((e) => e.tag))
  expect(embeddedPgMigrations.length).toBeGreaterThan(0)
})

// Each test below gets its own database on the run's one cluster, dropped afterwards.
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function database(options: { max?: number } = {}): Promise<SQL> {
  return (await databaseWithUrl(options)).client
}

async function databaseWithUrl(options: { max?: number } = {}): Promise<{ client: SQL; url: string }> {
  const pgdb = await freshPostgres()
  const client = new SQL({ url: pgdb.url, max: options.max ?? 4 })
  cleanups.push(pgdb.stop, () => client.close())
  return { client, url: pgdb.url }
}

test('on PostgreSQL, migrations apply once, are recorded like drizzle records them, and re-running is a no-op', async () => {
  const client = await database()
  expect(await migratePg(client)).toBe(embeddedPgMigrations.length)
  expect(await migratePg(client)).toBe(0)
  const recorded = await client`SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id`
  expect(recorded.map((row: { created_at: string | number }) => Number(row.created_at))).toEqual(embeddedPgMigrations.map((m) => m.when))
  expect(recorded[0].hash).toBe(new Bun.CryptoHasher('sha256').update(embeddedPgMigrations[0]!.sql).digest('hex'))
})

test('on PostgreSQL, two runners starting at once apply the migrations once (the advisory lock)', async () => {
  const { client, url } = await databaseWithUrl()
  const other = new SQL({ url, max: 1 })
  cleanups.push(() => other.close())
  const applied = await Promise.all([migratePg(client), migratePg(other)])
  expect(applied.sort((a, b) => a - b)).toEqual([0, embeddedPgMigrations.length])
  const [{ count }] = await client`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`
  expect(count).toBe(embeddedPgMigrations.length)
})

test('on PostgreSQL, two runners at once on clients that default to SERIALIZABLE (as the server pool does) apply the migrations once', async () => {
  const { url } = await databaseWithUrl()
  const serializable = () => new SQL({ url, max: 1, connection: { default_transaction_isolation: 'serializable' } })
  const [first, second] = [serializable(), serializable()]
  cleanups.push(
    () => first.close(),
    () => second.close(),
  )
  const applied = await Promise.all([migratePg(first), migratePg(second)])
  expect(applied.sort((a, b) => a - b)).toEqual([0, embeddedPgMigrations.length])
})

/** The search index's tables (core/search), written by hand in its migration outside the schema (docs/search.md). */
const HAND_WRITTEN = ['search_files', 'search_pages']

test('on PostgreSQL, the migrated tables and columns are the ones the pg schema describes, and the hand-written ones', async () => {
  const client = await database()
  await migratePg(client)
  const rows: { table_name: string; column_name: string; is_nullable: string; data_type: string; has_default: boolean }[] = await client`
    SELECT table_name, column_name, is_nullable, data_type, (column_default IS NOT NULL OR is_identity = 'YES') AS has_default
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`
  const expected = builtPgTables.flatMap((table) =>
    pgConfig(table).columns.map((column) => ({
      table_name: getTableName(table),
      column_name: column.name,
      is_nullable: column.notNull ? 'NO' : 'YES',
      data_type: column.getSQLType(),
      // Identity columns have no column_default but are filled in: drizzle counts them as having a default.
      has_default: column.hasDefault,
    })),
  )
  const byKey = (a: { table_name: string; column_name: string }, b: { table_name: string; column_name: string }) =>
    `${a.table_name}.${a.column_name}` < `${b.table_name}.${b.column_name}` ? -1 : 1
  const inSchema = rows.filter((row) => !HAND_WRITTEN.includes(row.table_name))
  expect(inSchema.map((row) => ({ ...row })).sort(byKey)).toEqual(expected.sort(byKey))
  expect([...new Set(rows.map((row) => row.table_name).filter((name) => HAND_WRITTEN.includes(name)))].sort()).toEqual(HAND_WRITTEN)

  const indexes: { indexname: string }[] = await client`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`
  const names = new Set(indexes.map((row) => row.indexname))
  for (const table of builtPgTables) {
    for (const index of pgConfig(table).indexes) expect(names).toContain(index.config.name!)
  }
  expect(names).toContain('links_one_default_idx')
  expect(names).toContain('search_pages_words_idx')
})

async function seedLink(client: SQL) {
  await migratePg(client)
  // Plain drizzle on bun-sql (no SERIALIZABLE retries), typed as the services see it (sqlite-shaped-orm.ts).
  const db = drizzle({ client, schema: pgTables }) as unknown as Orm
  const now = Date.now()
  await db.insert(pgTables.users).values({ id: 'u1', name: 'ann', createdAt: now })
  await db.insert(pgTables.owners).values({ id: 'u1', kind: 'user' })
  await db.insert(pgTables.files).values({
    id: 'f1',
    ownerId: 'u1',
    blobKey: 'b1',
    filename: 'a.pdf',
    title: 'A',
    description: '',
    size: 3_000_000_000, // past 2^31: the bigint column keeps it exactly
    sha256: 'x',
    createdAt: now,
    updatedAt: now,
    uploadedAt: now,
    versionId: 'v1',
  })
  const base = { fileId: 'f1', label: '', allowDownload: true, searchEngineVisible: false, disabled: false, createdAt: now, updatedAt: now }
  await db.insert(pgTables.links).values({ ...base, id: 'l1', slug: 's1', isDefault: true })
  return db
}

test('on PostgreSQL, 50 concurrent atomic increments of a link’s views give exactly 50 (drizzle on bun-sql)', async () => {
  const client = await database({ max: 10 })
  const db = await seedLink(client)
  // `SET views = views + 1` reads and writes the row under its row lock: a concurrent increment waits, then adds
  // to the committed value. Reading the count and writing back count + 1 would not (next test).
  await Promise.all(
    Array.from({ length: 50 }, () =>
      db
        .update(pgTables.links)
        .set({ views: sql`${pgTables.links.views} + 1` })
        .where(eq(pgTables.links.id, 'l1')),
    ),
  )
  const [link] = await db.select().from(pgTables.links).where(eq(pgTables.links.id, 'l1'))
  expect(link!.views).toBe(50)
  const [file] = await db.select().from(pgTables.files).where(eq(pgTables.files.id, 'f1'))
  expect(file!.size).toBe(3_000_000_000)
  expect(file!.seq).toBe(1)
})

test('on PostgreSQL, read-modify-write loses an update under READ COMMITTED (why the counters must be atomic)', async () => {
  const client = await database({ max: 4 })
  await seedLink(client)
  // SQLite's single writer serialises these; PostgreSQL lets both transactions read 0, and the second write,
  // after waiting for the first to commit, overwrites 1 with its own stale 0 + 1.
  const a = await client.reserve()
  const b = await client.reserve()
  try {
    await a`BEGIN`
    await b`BEGIN`
    const [seenByA] = await a`SELECT views FROM links WHERE id = 'l1'`
    const [seenByB] = await b`SELECT views FROM links WHERE id = 'l1'`
    await a`UPDATE links SET views = ${seenByA.views + 1} WHERE id = 'l1'`
    await a`COMMIT`
    await b`UPDATE links SET views = ${seenByB.views + 1} WHERE id = 'l1'`
    await b`COMMIT`
  } finally {
    a.release()
    b.release()
  }
  const [{ views }] = await client`SELECT views FROM links WHERE id = 'l1'`
  expect(views).toBe(1) // two views counted, one kept
})

test('on PostgreSQL, the partial unique index allows one default link a file', async () => {
  const client = await database()
  const db = await seedLink(client)
  const now = Date.now()
  const base = { fileId: 'f1', label: '', allowDownload: true, searchEngineVisible: false, disabled: false, createdAt: now, updatedAt: now }
  await db.insert(pgTables.links).values({ ...base, id: 'l2', slug: 's2', isDefault: false })
  const refused = await db
    .insert(pgTables.links)
    .values({ ...base, id: 'l3', slug: 's3', isDefault: true })
    .then(
      () => undefined,
      (error: Error) => error,
    )
  expect(String(refused?.cause ?? refused)).toContain('links_one_default_idx')
})

test("on PostgreSQL, visitor ids sort byte by byte and one address's marks are a range the primary key's index serves", async () => {
  const client = await database()
  await seedLink(client)
  // Ids as the view counter makes them: `<address tag>.<visitor>`; punctuation a linguistic collation would skip.
  await client.unsafe(
    `INSERT INTO view_marks (link_id, visitor, seen_at) SELECT 'l1', md5(i::text) || '.' || md5((i * 7)::text), 0 FROM generate_series(1, 5000) i`,
  )
  await client.unsafe(
    `INSERT INTO view_marks (link_id, visitor, seen_at) VALUES ('l1', 'tag-a.x', 0), ('l1', 'tag-a.y', 0), ('l1', 'tag-a/z', 0)`,
  )
  await client.unsafe('ANALYZE view_marks')
  const range = `FROM view_marks WHERE link_id = 'l1' AND visitor > 'tag-a.' AND visitor < 'tag-a/'`
  expect(Number((await client.unsafe(`SELECT count(*) AS n ${range}`))[0].n)).toBe(2)
  const plan = (await client.unsafe(`EXPLAIN SELECT count(*) ${range}`)).map((row: Record<string, string>) => row['QUERY PLAN']).join('\n')
  expect(plan).toContain('view_marks_link_id_visitor_pk')
  expect(plan).not.toContain('Seq Scan')
  // Whatever the database's own collation: the column's is "C" (pg migration 0002).
  const [column] = await client.unsafe(
    `SELECT collation_name FROM information_schema.columns WHERE table_name = 'view_marks' AND column_name = 'visitor'`,
  )
  expect(column.collation_name).toBe('C')
})
