import type { Client, Transaction } from '@libsql/client'
import type { Database } from '../db/database'
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

/** Where the install's id is kept besides the database: the data dir's file, or an object in the bucket. */
export type IdHolder = {
  /** For messages: the file's path, or the bucket object's name. */
  where: string
  read(): Promise<string | undefined>
  /** Writes it durably; called only under the database's lock, once per install. */
  write(id: string): Promise<void>
}

/** `<data>/data-dir-id`. */
export function dataDirIdHolder(layout: DataDirLayout): IdHolder {
  return {
    where: layout.idFile,
    read: () =>
      readFile(layout.idFile, 'utf8').then(
        (text) => text.trim(),
        () => undefined,
      ),
    write: (id) => writeDataDirId(layout, id),
  }
}

type Pairing = {
  database: Pick<Database, 'exclusive'>
  layout: DataDirLayout
  blobs: BlobStore
  /** Where the PDFs are, for messages (the blobs folder, or the bucket). */
  blobsWhere: string
  databaseUrl: string
  /** The id's other half; the data dir's file unless the blobs are in a bucket (then the bucket's object). */
  holder: IdHolder
}

/**
 * Makes sure the database and the blob store belong together: both carry the same random id (the `meta`
 * table, and the data dir's `data-dir-id` or, for blobs in a bucket, the bucket's own id object, which every
 * instance of a scaled-out install sees). Both without one: a new install, or one from before ids, which is
 * adopted when it looks consistent (files in the database exactly when there are PDFs in the blob store).
 * An install that moved its PDFs into a bucket keeps its id: the bucket takes over the data dir's. Anything
 * else is refused before anything is changed. Runs under the database's lock, so a server and a CLI
 * command (or several instances) starting together on a new install agree on one id. Returns the id.
 */
export async function pairDatabaseWithDataDir({ database, layout, blobs, blobsWhere, databaseUrl, holder }: Pairing): Promise<string> {
  const refuse = (reason: string) =>
    new DataDirMismatch(
      `the database and the data dir do not belong together: ${reason}. Check PDFSHARE_DATABASE_URL (${describeDatabase(databaseUrl)}) ` +
        `and --data / PDFSHARE_DATA_DIR (${layout.root})${holder.where === layout.idFile ? '' : ' and the PDFSHARE_S3_* settings'}; no PDF was touched`,
    )
  return database.exclusive(async (query) => {
    const [idRow] = await query('SELECT value FROM meta WHERE key = ?', [KEY])
    const inDatabase = idRow ? String(idRow[0]) : undefined
    let inHolder = await holder.read()
    if (inDatabase && !inHolder && holder.where !== layout.idFile && (await dataDirIdHolder(layout).read()) === inDatabase) {
      // The PDFs were moved into the bucket (`storage migrate`): the bucket carries the id from now on.
      await holder.write(inDatabase)
      inHolder = inDatabase
    }
    if (inDatabase && inHolder) {
      if (inDatabase !== inHolder)
        throw refuse(`the database is paired with data dir id ${inDatabase}, but ${holder.where} holds ${inHolder}`)
      return inDatabase
    }
    if (inDatabase) throw refuse(`the database is paired with data dir id ${inDatabase}, but there is no ${holder.where}`)
    if (inHolder) throw refuse(`${holder.where} holds data dir id ${inHolder}, but the database has no id (a new, empty database?)`)

    const [countRow] = await query('SELECT count(*) FROM files')
    const files = Number(countRow?.[0] ?? 0)
    const hasBlobs = !(await blobs.keys()[Symbol.asyncIterator]().next()).done
    if (files === 0 && hasBlobs) throw refuse(`the database has no files, but ${blobsWhere} holds PDFs`)
    if (files > 0 && !hasBlobs) throw refuse(`the database has ${files} file(s), but ${blobsWhere} holds no PDF`)

    const id = randomId(16)
    await query('INSERT INTO meta (key, value) VALUES (?, ?)', [KEY, id])
    await holder.write(id)
    return id
  })
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
