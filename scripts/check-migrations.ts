/**
 * `bun scripts/check-migrations.ts [sqlite-dir] [pg-dir]`: compares every migration with what drizzle-kit generates
 * from its snapshot and the one before (drizzle-kit/api), and the last snapshot with the schema, for both dialects.
 * Prints one JSON object: each migration's state (`generated`: its statements are drizzle-kit's; `edited`: they
 * differ; `asks`: drizzle-kit asks about a rename, so only a person can generate it) with the statements only in
 * the file, the snapshots whose `prevId` is not the one before, and what the schema would still migrate.
 * test/db/generated-migrations.test.ts runs it (in a process of its own: a rename question would wait on a terminal).
 */
import { generateDrizzleJson, generateMigration, generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as pgSchema from '../src/db/pg/schema'
import * as sqliteSchema from '../src/db/schema'
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR, readJournal } from './embed-migrations'

type Snapshot = { id: string; prevId: string } & Record<string, unknown>
type Dialect = 'sqlite' | 'postgresql'

/** The snapshot before the first migration: no tables. */
const EMPTY = {
  sqlite: {
    version: '6',
    dialect: 'sqlite',
    tables: {},
    views: {},
    enums: {},
    _meta: { schemas: {}, tables: {}, columns: {} },
    internal: { indexes: {} },
  },
  postgresql: {
    version: '7',
    dialect: 'postgresql',
    tables: {},
    enums: {},
    schemas: {},
    sequences: {},
    roles: {},
    policies: {},
    views: {},
    _meta: { schemas: {}, tables: {}, columns: {} },
  },
}
const NO_ID = '00000000-0000-0000-0000-000000000000'

const generate = (dialect: Dialect, from: Snapshot, to: Snapshot) =>
  dialect === 'sqlite' ? generateSQLiteMigration(from as never, to as never) : generateMigration(from as never, to as never)

/** A migration's statements, as drizzle's migrator splits them, with the whitespace that does not matter folded. */
const statements = (sql: string[]) => sql.map((text) => text.replace(/\s+/g, ' ').trim()).filter((text) => text.length > 0)

async function check(dialect: Dialect, dir: string) {
  const migrations = []
  const brokenChain: string[] = []
  let previous = { ...EMPTY[dialect], id: NO_ID, prevId: '' } as Snapshot
  for (const entry of readJournal(dir).entries) {
    const snapshot: Snapshot = JSON.parse(readFileSync(join(dir, 'meta', `${String(entry.idx).padStart(4, '0')}_snapshot.json`), 'utf8'))
    if (snapshot.prevId !== previous.id) brokenChain.push(entry.tag)
    const sql = readFileSync(join(dir, `${entry.tag}.sql`), 'utf8')
    const inFile = statements(sql.split('--> statement-breakpoint'))
    const generated = await generate(dialect, previous, snapshot).then(statements, () => undefined)
    const onlyInFile = generated ? inFile.filter((text) => !generated.includes(text)) : []
    const same = generated !== undefined && JSON.stringify(inFile) === JSON.stringify(generated)
    migrations.push({
      tag: entry.tag,
      state: generated === undefined ? 'asks' : same ? 'generated' : 'edited',
      firstLine: sql.split('\n')[0],
      onlyInFile,
    })
    previous = snapshot
  }
  const schema = dialect === 'sqlite' ? await generateSQLiteDrizzleJson(sqliteSchema) : generateDrizzleJson(pgSchema)
  const pending = statements(await generate(dialect, previous, { ...schema, prevId: previous.id } as Snapshot))
  return { migrations, brokenChain, pending }
}

if (import.meta.main) {
  // drizzle-kit asks about a rename on a terminal and waits; here the question only means "asks".
  Object.defineProperty(process.stdin, 'isTTY', { value: false })
  const [sqliteDir = MIGRATIONS_DIR, pgDir = PG_MIGRATIONS_DIR] = process.argv.slice(2)
  console.log(JSON.stringify({ sqlite: await check('sqlite', sqliteDir), postgresql: await check('postgresql', pgDir) }))
}
