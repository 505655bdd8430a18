import { createClient } from '@libsql/client'
import { sql } from 'drizzle-orm'
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { AppContext } from '../core/context'
import { blobStoreOf } from '../data-dir/blobs'
import { layoutOf } from '../data-dir/layout'
import { BlobMismatch } from '../storage/expected-bytes'
import { fsyncPath } from '../storage/fsync'
import { openPrivateFolder, UnsafeFolder, writeNewFile } from '../storage/private-folder'
import { randomId } from '../lib/ids'
import { badRequest, snapshotsKeptChanging } from '../errors'
import { VERSION } from '../version'
import { VISITOR_SALT_KEY } from '../db/meta-keys'

/**
 * What `backup.json` records; its presence marks a complete backup (it is written last). `bytes` counts every
 * PDF copied, the files' current ones and their kept previous versions; `versions` is absent in backups made
 * before versions existed.
 */
export type BackupManifest = { format: 1; version: string; createdAt: string; files: number; versions?: number; bytes: number }

export const BACKUP_MANIFEST = 'backup.json'
export const BACKUP_DATABASE = 'pdfshare.db'

const MAX_ATTEMPTS = 5

/**
 * A consistent snapshot of the database and the blobs (the files' current PDFs and their kept previous
 * versions) while the server keeps running and writing.
 *
 * The database is copied with `VACUUM INTO`, one read transaction, so it is a single point in time. Blobs are
 * immutable (a replacement writes a new key), so every blob the snapshot refers to can be copied afterwards —
 * unless a delete or replacement removes it first. Then the snapshot is retaken and only what is missing is
 * copied; blobs no longer referenced by the final snapshot are dropped from the backup.
 *
 * The backup folder is laid out like a data dir (blobs/, and tmp/ while it is written) and its blobs are
 * written through the same blob store as a data dir's, read from the live store through its interface.
 *
 * A backup holds the database and the signing key, so it is written only into a folder nobody else can change
 * or move (storage/private-folder.ts: created here, or an empty private one of this user's, with nobody else
 * owning a folder above it), opened once: everything is made and renamed through that open folder, never by its
 * path again, so a folder swapped in at the path mid-backup receives nothing. First into a private folder
 * inside it (`.incomplete-` and a random name), whose parts are moved into place when everything is copied; the
 * manifest comes last. Files are created with O_EXCL and O_NOFOLLOW and their mode set on the open file.
 */
export async function backupTo(ctx: AppContext, target: string): Promise<BackupManifest & { attempts: number }> {
  if (!ctx.config.databaseUrl.startsWith('file:')) {
    throw badRequest('backup copies the embedded database; back up a libSQL server with its own tools')
  }
  const folder = await openPrivateFolder(target, 'the backup directory').catch((error: unknown) => {
    throw error instanceof UnsafeFolder ? badRequest(error.message) : error
  })
  try {
    const staging = folder.at(`.incomplete-${randomId(12)}`)
    await mkdir(staging, { mode: 0o700 })
    try {
      const result = await backupInto(ctx, staging)
      for (const name of await readdir(staging)) await rename(join(staging, name), folder.at(name))
      await rmdir(staging)
      await writeNewFile(folder.at(BACKUP_MANIFEST), `${JSON.stringify(result.manifest, null, 2)}\n`)
      await folder.sync()
      return { ...result.manifest, attempts: result.attempts }
    } catch (error) {
      await rm(staging, { recursive: true, force: true })
      throw error
    }
  } finally {
    await folder.close()
  }
}

/**
 * The snapshot, its blobs and the signing key, into `target` (private, new, named through the open backup
 * folder); the manifest to write last.
 */
async function backupInto(ctx: AppContext, target: string): Promise<{ manifest: BackupManifest; attempts: number }> {
  const folder = layoutOf(target)
  await mkdir(folder.tmp, { recursive: true, mode: 0o700 })
  const blobs = blobStoreOf(folder)
  const copied = new Set<string>()
  const snapshot = join(target, BACKUP_DATABASE)

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await rm(snapshot, { force: true })
    await vacuumInto(ctx, snapshot)
    const rows = await rowsOf(snapshot)
    let complete = true
    for (const row of rows) {
      if (copied.has(row.blobKey)) continue
      if (!(await ctx.blobs.stat(row.blobKey))) {
        complete = false // deleted or replaced since the snapshot: take a newer snapshot
        break
      }
      await blobs.put(row.blobKey, { stream: ctx.blobs.read(row.blobKey), expected: { size: row.size } }).catch((error: unknown) => {
        throw error instanceof BlobMismatch ? new Error(`blob of ${describeRow(row)} changed size while it was copied`) : error
      })
      copied.add(row.blobKey)
    }
    if (!complete) continue

    const referenced = new Set(rows.map((row) => row.blobKey))
    for (const key of copied) if (!referenced.has(key)) await blobs.delete(key)
    await rm(folder.tmp, { recursive: true, force: true })
    await forgetVisitorSalt(snapshot)
    if (existsSync(ctx.layout.secretFile)) await writeNewFile(folder.secretFile, await readFile(ctx.layout.secretFile))
    const manifest: BackupManifest = {
      format: 1,
      version: VERSION,
      createdAt: new Date(ctx.now()).toISOString(),
      files: rows.filter((row) => row.versionId === null).length,
      versions: rows.filter((row) => row.versionId !== null).length,
      bytes: rows.reduce((sum, row) => sum + row.size, 0),
    }
    await fsyncPath(snapshot)
    await fsyncPath(target)
    return { manifest, attempts: attempt }
  }
  throw snapshotsKeptChanging(MAX_ATTEMPTS)
}

/**
 * The database's snapshot into `path`, created first as this user's new file (mode 0600, never through a link).
 * SQLite names the file again by its own path (it resolves links, /proc/self/fd's too, into a path of folders),
 * so the file is checked afterwards to be the one created, and full: the folders on that path are ones nobody
 * else may move (openPrivateFolder), and the name of the folder inside (`.incomplete-…`) is random and visible
 * to nobody else.
 */
async function vacuumInto(ctx: AppContext, path: string): Promise<void> {
  await writeNewFile(path, new Uint8Array())
  await ctx.db.orm.run(sql`VACUUM INTO ${path}`)
  if ((await lstat(path)).size === 0) throw new Error(`the database snapshot did not arrive in ${path}`)
}

/**
 * Deletes the day's visitor salt from a snapshot, with SQLite's secure_delete so its bytes are overwritten in
 * the file too: whoever holds a backup must not be able to test an address against that day's visitor keys.
 */
async function forgetVisitorSalt(databasePath: string): Promise<void> {
  const client = createClient({ url: `file:${databasePath}` })
  try {
    await client.executeMultiple(`PRAGMA secure_delete = ON; DELETE FROM meta WHERE key = '${VISITOR_SALT_KEY}';`)
  } finally {
    client.close()
  }
}

/** A PDF a database file refers to: a file's current one (`versionId` null), or a kept previous version. */
export type SnapshotRow = { fileId: string; versionId: string | null; blobKey: string; size: number; sha256: string }

/** How a message names the PDF of a row. */
export function describeRow(row: SnapshotRow): string {
  return row.versionId === null ? `file ${row.fileId}` : `version ${row.versionId} of file ${row.fileId}`
}

/**
 * Every PDF recorded in a database file (a backup's snapshot), in one read: the files' current PDFs and their
 * kept previous versions. A snapshot from before versions existed has no file_versions table.
 */
export async function rowsOf(databasePath: string): Promise<SnapshotRow[]> {
  const client = createClient({ url: `file:${databasePath}` })
  try {
    const hasVersions =
      (await client.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'file_versions'")).rows.length > 0
    const result = await client.execute(
      `SELECT id AS file_id, NULL AS version_id, blob_key, size, sha256 FROM files${
        hasVersions ? ' UNION ALL SELECT file_id, id, blob_key, size, sha256 FROM file_versions' : ''
      }`,
    )
    return result.rows.map((row) => ({
      fileId: String(row.file_id),
      versionId: row.version_id === null ? null : String(row.version_id),
      blobKey: String(row.blob_key),
      size: Number(row.size),
      sha256: String(row.sha256),
    }))
  } finally {
    client.close()
  }
}

export async function assertEmptyDir(path: string, what: string): Promise<void> {
  const entries = await readdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[]
    throw error
  })
  if (entries.length > 0) throw badRequest(`${what} ${path} is not empty`)
}
