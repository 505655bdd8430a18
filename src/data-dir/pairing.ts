import type { Client, Transaction } from '@libsql/client'
import { readFile, writeFile } from 'node:fs/promises'
import { ConfigError } from '../config'
import { randomId } from '../lib/ids'
import type { BlobStore } from '../storage/blob-store'
import { fsyncPath } from '../storage/fsync'
import type { DataDirLayout } from './layout'

const KEY = 'data_dir_id'

/**
 * A start with a database and a data dir that do not belong together. The start-up sweep treats blobs no
 * row points at as leftovers, so an empty database in front of a full blob store (a mistyped
 * PDFSHARE_DATABASE_URL) would look like "every PDF is a leftover". A ConfigError: one line, exit code 2.
 */
export class DataDirMismatch extends ConfigError {
  override name = 'DataDirMismatch'
}

type Pairing = { client: Client; layout: DataDirLayout; blobs: BlobStore; databaseUrl: string }

/**
 * Makes sure the database and the data dir belong together: both carry the same random id (the `meta` table
 * and `<data>/data-dir-id`). Both without one: a new install, or a data dir from before ids, which is
 * adopted when it looks consistent (files in the database exactly when there are PDFs in the blob store).
 * Anything else is refused before anything is changed. Runs under the database's write lock, so a server
 * and a CLI command starting together on a new data dir agree on one id. Returns the id.
 */
export async function pairDatabaseWithDataDir({ client, layout, blobs, databaseUrl }: Pairing): Promise<string> {
  const refuse = (reason: string) =>
    new DataDirMismatch(
      `the database and the data dir do not belong together: ${reason}. Check PDFSHARE_DATABASE_URL (${describeDatabase(databaseUrl)}) ` +
        `and --data / PDFSHARE_DATA_DIR (${layout.root}); no PDF was touched`,
    )
  const tx = await client.transaction('write')
  try {
    const inDatabase = await storedId(tx)
    const inDataDir = await readFile(layout.idFile, 'utf8').then(
      (text) => text.trim(),
      () => undefined,
    )
    if (inDatabase && inDataDir) {
      if (inDatabase !== inDataDir)
        throw refuse(`the database is paired with data dir id ${inDatabase}, but ${layout.idFile} holds ${inDataDir}`)
      return inDatabase
    }
    if (inDatabase) throw refuse(`the database is paired with data dir id ${inDatabase}, but ${layout.root} has no data-dir-id file`)
    if (inDataDir)
      throw refuse(`${layout.root} is paired with data dir id ${inDataDir}, but the database has no id (a new, empty database?)`)

    const files = Number((await tx.execute('SELECT count(*) FROM files')).rows[0]?.[0] ?? 0)
    const hasBlobs = !(await blobs.keys()[Symbol.asyncIterator]().next()).done
    if (files === 0 && hasBlobs) throw refuse(`the database has no files, but ${layout.blobs} holds PDFs`)
    if (files > 0 && !hasBlobs) throw refuse(`the database has ${files} file(s), but ${layout.blobs} holds no PDF`)

    const id = randomId(16)
    await tx.execute({ sql: 'INSERT INTO meta (key, value) VALUES (?, ?)', args: [KEY, id] })
    await writeDataDirId(layout, id)
    await tx.commit()
    return id
  } finally {
    tx.close() // rolls back whatever was not committed
  }
}

/** The id a database file records, if any (also for a backup's snapshot, which may predate ids). */
export async function storedId(db: Pick<Client | Transaction, 'execute'>): Promise<string | undefined> {
  const table = await db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
  if (table.rows.length === 0) return undefined
  const row = (await db.execute({ sql: 'SELECT value FROM meta WHERE key = ?', args: [KEY] })).rows[0]
  return row ? String(row[0]) : undefined
}

/** Writes `<data>/data-dir-id`, durably; never over an existing one. */
export async function writeDataDirId(layout: DataDirLayout, id: string): Promise<void> {
  await writeFile(layout.idFile, `${id}\n`, { flag: 'wx', mode: 0o600 })
  await fsyncPath(layout.idFile)
  await fsyncPath(layout.root)
}

/** The database's location for a message: a path, or a server's address without credentials or query. */
function describeDatabase(url: string): string {
  if (url.startsWith('file:')) return url.replace(/\?.*$/, '')
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    return 'a libSQL server'
  }
}
