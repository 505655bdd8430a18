import { SQL } from 'bun'
import { getTableColumns, getTableName, type Table } from 'drizzle-orm'
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { AppContext } from '../core/context'
import { sqliteTables } from '../db/schema'
import { badRequest } from '../errors'
import { VISITOR_SALT_KEY } from '../db/meta-keys'

/**
 * Tables left behind, each with why: counters and proofs of the moment, which the running install makes anew.
 * Every other table of the schema is copied (`tablesToCopy`), so a table added later moves without anyone
 * remembering to list it here.
 */
export const LEFT_BEHIND: Readonly<Record<string, string>> = {
  rate_counters: 'rate limits of the current minute or hour',
  upload_leases: 'uploads in progress (the server is stopped)',
  sso_handoffs: 'single sign-on handoffs live a minute',
  webauthn_challenges: 'passkey prompts live five minutes',
}

/** The schema's tables minus LEFT_BEHIND, each after the tables its rows refer to. */
export function tablesToCopy(): SQLiteTable[] {
  const all: SQLiteTable[] = Object.values(sqliteTables)
  const byName = new Map<string, SQLiteTable>(all.map((table) => [getTableName(table), table]))
  const ordered: SQLiteTable[] = []
  const placed = new Set<string>()
  const place = (table: SQLiteTable, path: string[]) => {
    const name = getTableName(table)
    if (placed.has(name) || name in LEFT_BEHIND) return
    if (path.includes(name)) throw new Error(`the tables refer to each other in a circle: ${[...path, name].join(' → ')}`)
    for (const key of getTableConfig(table).foreignKeys) {
      const parent = byName.get(getTableName(key.reference().foreignTable))
      if (parent && parent !== table) place(parent, [...path, name])
    }
    placed.add(name)
    ordered.push(table)
  }
  for (const table of all) place(table, [])
  return ordered
}
/** Rows read and written per statement: well under PostgreSQL's 65,535 parameters for the widest table. */
const PAGE = 500

export type CopiedTable = { table: string; rows: number }

/**
 * Copies an embedded install's metadata into an empty PostgreSQL database: the migrations first, then every
 * row of every table (identity keys kept, their sequences moved past them), in one transaction that commits
 * only when each table's count on PostgreSQL equals the one read here. The embedded file is only read.
 * `signingSecret`, when given (the data dir's generated secret), is stored in `meta` the way instances on
 * PostgreSQL share it, so every token and link cookie issued before keeps working.
 */
export async function copyDatabaseTo(ctx: AppContext, targetUrl: string, options: { signingSecret?: string } = {}): Promise<CopiedTable[]> {
  const { migratePg } = await import('../db/pg/migrate') // loaded only when used, as by openDb
  const target = new SQL(targetUrl, { max: 1 })
  try {
    await migratePg(target)
    return await target.begin(async (tx) => {
      const [held] = await tx.unsafe(
        'SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM files) + (SELECT count(*) FROM meta) AS n',
      )
      if (Number(held.n) > 0) {
        throw badRequest('the PostgreSQL database already holds pdfshare data; copy into a new, empty database')
      }
      const copied: CopiedTable[] = []
      for (const table of tablesToCopy()) copied.push(await copyTable(ctx, tx, table))
      if (options.signingSecret) {
        await tx.unsafe('INSERT INTO meta (key, value) VALUES ($1, $2)', ['signing_secret', options.signingSecret])
      }
      return copied
    })
  } finally {
    await target.close()
  }
}

async function copyTable(ctx: AppContext, tx: SQL, table: Table): Promise<CopiedTable> {
  const name = getTableName(table)
  const columns = Object.values(getTableColumns(table)).map((column) => column.name)
  const list = columns.map((column) => `"${column}"`).join(', ')
  let rows = 0
  // rowid order: stable, and the server is stopped, so nothing moves meanwhile.
  for (let offset = 0; ; offset += PAGE) {
    const read = await ctx.db.orm.select().from(table).limit(PAGE).offset(offset)
    if (read.length === 0) break
    // The day's visitor salt stays behind: the migrated install starts a new one (see visitor-salt.ts).
    const page = table === sqliteTables.meta ? read.filter((row) => (row as { key: string }).key !== VISITOR_SALT_KEY) : read
    const keys = Object.keys(getTableColumns(table))
    const values: unknown[] = []
    const tuples = page.map((row) => {
      const record = row as Record<string, unknown>
      const start = values.length
      for (const key of keys) values.push(record[key] ?? null)
      return `(${keys.map((_, i) => `$${start + i + 1}`).join(', ')})`
    })
    // The identity keys (`seq`) keep their values, so creation order and cursors stay as they were.
    const keep = columns.includes('seq') ? ' OVERRIDING SYSTEM VALUE' : ''
    if (page.length > 0) await tx.unsafe(`INSERT INTO "${name}" (${list})${keep} VALUES ${tuples.join(', ')}`, values)
    rows += page.length
    if (read.length < PAGE) break
  }
  if (columns.includes('seq')) {
    await tx.unsafe(`SELECT setval(pg_get_serial_sequence('"${name}"', 'seq'), coalesce((SELECT max(seq) FROM "${name}"), 0) + 1, false)`)
  }
  const [counted] = await tx.unsafe(`SELECT count(*) AS n FROM "${name}"`)
  if (Number(counted.n) !== rows) throw new Error(`${name}: ${rows} row(s) read, ${counted.n} on PostgreSQL`)
  return { table: name, rows }
}
