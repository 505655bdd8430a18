import { createClient } from '@libsql/client'
import { mkdir, rename, rm, rmdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { badRequest } from '../errors'
import type { Config } from '../config'
import { configuredBlobStore } from '../data-dir/blobs'
import { layoutOf } from '../data-dir/layout'
import { storedId, writeDataDirId } from '../data-dir/pairing'
import type { BlobStat, BlobStore } from '../storage/blob-store'
import { BlobMismatch } from '../storage/expected-bytes'
import { fsyncPath } from '../storage/fsync'
import { type OpenedFolder, openFolderFor, UnsafeFolder, writeNewFile } from '../storage/private-folder'
import { randomId } from '../lib/ids'
import { openRegularFile } from '../storage/regular-file'
import { openUntrustedBlobFolder, RefusedBlob } from '../storage/untrusted-blob-folder'
import { assertEmptyDir, BACKUP_DATABASE, BACKUP_MANIFEST, describeRow, rowsOf, type BackupManifest, type SnapshotRow } from './backup'

const damaged = badRequest

/** Where a restore puts things: the data dir, and the blob store its install is configured with. */
export type RestoreTarget = Pick<
  Config,
  'dataDir' | 'storage' | 's3Endpoint' | 's3Bucket' | 's3Region' | 's3AccessKeyId' | 's3SecretAccessKey' | 's3PathStyle'
>

/**
 * Brings a backup back into an empty data dir and its configured blob store (the data dir's own, or an S3
 * bucket, which must then hold no pdfshare PDFs: like a data dir, a restore never merges into one in use). Every blob (current PDFs and kept previous versions) is checked against the snapshot (size and
 * SHA-256) before anything is put in place; the data dir is assembled beside it and renamed into place at
 * the end, so an interrupted restore leaves no half-restored data dir behind.
 *
 * Only regular files are taken from the backup, never what a symbolic link, device or fifo leads to: a
 * backup may come from elsewhere, and restore may run as a user who can read more than its author (a
 * `jwt-secret` linked to a root-only file would be copied into the data dir). Each file is opened first and
 * the opened file is checked (storage/regular-file.ts), so nothing can be swapped in between a check and the
 * read; the database is read from its copy in the staging dir, never from the backup. All bad PDFs are
 * reported together, so one run tells what is wrong with the whole backup.
 *
 * The backup's blobs are read through a blob store that reads regular files only, and written through the
 * target's configured blob store (for local storage: the staging data dir's), each checked against its
 * SHA-256 on the way in. When the restore fails, the blobs it put into a bucket are deleted again.
 */
export async function restoreFrom(source: string, target: RestoreTarget): Promise<BackupManifest> {
  const { dataDir } = target
  const manifestText = await readBackupFile(source, BACKUP_MANIFEST)
  if (manifestText === 'missing') throw damaged(`${source} is not a complete pdfshare backup (no ${BACKUP_MANIFEST})`)
  const manifest = parseManifest(manifestText)
  const database = await openRegularFile(source, BACKUP_DATABASE)
  if (typeof database === 'string')
    throw damaged(`the backup is damaged: ${BACKUP_DATABASE} ${database === 'missing' ? 'is missing' : database}`)
  await database.handle.close() // opened again to be copied, and checked again then
  const secret = await readBackupFile(source, 'jwt-secret')
  await assertEmptyDir(dataDir, 'the data dir')

  // Assembled beside the data dir in a folder only this process made (mode 0700, a random name), then renamed into
  // place, all through the folder above opened once: nobody else may move it, nor a folder above it, so nobody can
  // put a folder of theirs where the database and the secret are being written.
  const parent = await openFolderFor(dataDir, 'the data dir').catch((error: unknown) => {
    throw error instanceof UnsafeFolder ? badRequest(error.message) : error
  })
  try {
    return await restoreBeside(source, target, manifest, secret, parent)
  } finally {
    await parent.close()
  }
}

async function restoreBeside(
  source: string,
  target: RestoreTarget,
  manifest: BackupManifest,
  secret: Uint8Array | 'missing',
  parent: OpenedFolder,
): Promise<BackupManifest> {
  const name = basename(target.dataDir)
  const staging = parent.at(`.${name}.restoring-${randomId(12)}`)
  await mkdir(staging, { mode: 0o700 })
  const layout = layoutOf(staging)
  // For local storage, the staging dir's own (empty) store; for S3, the bucket, checked to hold no PDFs.
  const blobs = configuredBlobStore(layout, target)
  const put: string[] = []
  try {
    if (target.storage === 's3' && !(await blobs.keys()[Symbol.asyncIterator]().next()).done)
      throw badRequest(
        `the S3 bucket ${target.s3Bucket} already holds pdfshare PDFs (under blobs/); restore into an empty bucket, as into an empty data dir`,
      )
    await mkdir(layout.tmp, { recursive: true, mode: 0o700 })
    await mkdir(layout.previews, { recursive: true, mode: 0o700 })
    await copyBackupFile(source, BACKUP_DATABASE, join(staging, 'pdfshare.db'))
    const backup = openUntrustedBlobFolder(layoutOf(source).blobs)
    const rows = await rowsOf(join(staging, 'pdfshare.db'))
    const problems: string[] = []
    for (const row of rows) {
      const problem = await restoreBlob(backup, blobs, row)
      if (problem) problems.push(`${describeRow(row)}: ${problem}`)
      else put.push(row.blobKey)
    }
    if (problems.length > 0)
      throw damaged(`the backup is damaged: ${problems.length} of ${rows.length} PDF(s) cannot be restored: ${problems.join('; ')}`)

    // The restored data dir is the backed-up one again: same id on both sides, so it starts. A backup from
    // before ids has none; its first start adopts it.
    const id = await idOf(join(staging, 'pdfshare.db'))
    if (id) await writeDataDirId(layout, id)
    if (secret !== 'missing') await writeNewFile(layout.secretFile, secret)
    await fsyncPath(staging)
    if (existsSync(parent.at(name))) await rmdir(parent.at(name)) // empty, checked above
    await rename(staging, parent.at(name))
    await parent.sync()
    return manifest
  } catch (error) {
    if (target.storage !== 'local') for (const key of put) await blobs.delete(key).catch(() => undefined)
    await rm(staging, { recursive: true, force: true })
    throw error
  }
}

/**
 * A file of the backup, read through its open file once that is checked to be a regular file in place
 * (storage/regular-file.ts); 'missing' when there is none; a refusal when it is something else.
 */
async function readBackupFile(source: string, name: string): Promise<Uint8Array | 'missing'> {
  const file = await openRegularFile(source, name)
  if (file === 'missing') return file
  if (typeof file === 'string') throw damaged(`the backup is damaged: ${name} ${file}`)
  try {
    return new Uint8Array(await file.handle.readFile())
  } finally {
    await file.handle.close()
  }
}

/** The same for a file too large to hold in memory (the database): copied into `destination`, and synced. */
async function copyBackupFile(source: string, name: string, destination: string): Promise<void> {
  const file = await openRegularFile(source, name)
  if (typeof file === 'string') throw damaged(`the backup is damaged: ${name} ${file === 'missing' ? 'is missing' : file}`)
  try {
    await Bun.write(destination, Bun.file(file.handle.fd))
  } finally {
    await file.handle.close()
  }
  await fsyncPath(destination)
}

function parseManifest(bytes: Uint8Array): BackupManifest {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes)) as BackupManifest
  } catch {
    throw damaged(`the backup is damaged: ${BACKUP_MANIFEST} is not JSON`)
  }
  if (manifest?.format !== 1) throw damaged(`backup format ${manifest?.format} is not supported by this version`)
  return manifest
}

/** Copies one blob into the staging data dir if it is intact; otherwise says what is wrong with it. */
async function restoreBlob(backup: BlobStore, blobs: BlobStore, row: SnapshotRow): Promise<string | undefined> {
  let found: BlobStat | undefined
  try {
    found = await backup.stat(row.blobKey)
  } catch (error) {
    if (error instanceof RefusedBlob) return `its PDF ${error.reason}`
    throw error
  }
  if (!found) return 'its PDF is missing'
  if (found.size !== row.size) return `its PDF has ${found.size} bytes, ${row.size} recorded`
  try {
    await blobs.put(row.blobKey, { stream: backup.read(row.blobKey), expected: { sha256: row.sha256 } })
  } catch (error) {
    if (error instanceof BlobMismatch) return 'its PDF does not match its SHA-256'
    throw error
  }
  return undefined
}

async function idOf(databasePath: string): Promise<string | undefined> {
  const client = createClient({ url: `file:${databasePath}` })
  try {
    return await storedId(client)
  } finally {
    client.close()
  }
}
