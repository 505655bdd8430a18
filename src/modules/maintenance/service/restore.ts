import { createClient } from '@libsql/client'
import { chmod, copyFile, mkdir, readFile, rename, rm, rmdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { badRequest } from '../../../errors'
import { randomId } from '../../../lib/ids'
import type { Config } from '../../../config'
import { configuredBlobStore } from '../../../data-dir/blobs'
import { layoutOf } from '../../../data-dir/layout'
import { storedId, writeDataDirId } from '../../../data-dir/pairing'
import type { BlobStat, BlobStore } from '../../../storage/blob-store'
import { BlobMismatch } from '../../../storage/expected-bytes'
import { fsyncPath } from '../../../storage/fsync'
import { whyNotRegularFile } from '../../../storage/regular-file'
import { openUntrustedBlobFolder, RefusedBlob } from '../../../storage/untrusted-blob-folder'
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
 * `jwt-secret` linked to a root-only file would be copied into the data dir). All bad PDFs are reported
 * together, so one run tells what is wrong with the whole backup.
 *
 * The backup's blobs are read through a blob store that reads regular files only, and written through the
 * target's configured blob store (for local storage: the staging data dir's), each checked against its
 * SHA-256 on the way in. When the restore fails, the blobs it put into a bucket are deleted again.
 */
export async function restoreFrom(source: string, target: RestoreTarget): Promise<BackupManifest> {
  const { dataDir } = target
  const manifestProblem = await whyNotRegularFile(source, BACKUP_MANIFEST)
  if (manifestProblem === 'missing') throw damaged(`${source} is not a complete pdfshare backup (no ${BACKUP_MANIFEST})`)
  if (manifestProblem) throw damaged(`the backup is damaged: ${BACKUP_MANIFEST} ${manifestProblem}`)
  const manifest = JSON.parse(await readFile(join(source, BACKUP_MANIFEST), 'utf8')) as BackupManifest
  if (manifest.format !== 1) throw damaged(`backup format ${manifest.format} is not supported by this version`)
  const databaseProblem = await whyNotRegularFile(source, BACKUP_DATABASE)
  if (databaseProblem) throw damaged(`the backup is damaged: ${BACKUP_DATABASE} ${databaseProblem}`)
  const secretProblem = await whyNotRegularFile(source, 'jwt-secret')
  if (secretProblem && secretProblem !== 'missing') throw damaged(`the backup is damaged: jwt-secret ${secretProblem}`)
  await assertEmptyDir(dataDir, 'the data dir')

  const staging = join(dirname(dataDir), `.${randomId(6)}.restoring`)
  const layout = layoutOf(staging)
  // For local storage, the staging dir's own (empty) store; for S3, the bucket, checked to hold no PDFs.
  const blobs = configuredBlobStore(layout, target)
  if (target.storage === 's3' && !(await blobs.keys()[Symbol.asyncIterator]().next()).done)
    throw badRequest(
      `the S3 bucket ${target.s3Bucket} already holds pdfshare PDFs (under blobs/); restore into an empty bucket, as into an empty data dir`,
    )
  const put: string[] = []
  try {
    await mkdir(layout.tmp, { recursive: true, mode: 0o700 })
    await mkdir(layout.previews, { recursive: true, mode: 0o700 })
    const backup = openUntrustedBlobFolder(layoutOf(source).blobs)
    const rows = await rowsOf(join(source, BACKUP_DATABASE))
    const problems: string[] = []
    for (const row of rows) {
      const problem = await restoreBlob(backup, blobs, row)
      if (problem) problems.push(`${describeRow(row)}: ${problem}`)
      else put.push(row.blobKey)
    }
    if (problems.length > 0)
      throw damaged(`the backup is damaged: ${problems.length} of ${rows.length} PDF(s) cannot be restored: ${problems.join('; ')}`)

    await copyFile(join(source, BACKUP_DATABASE), join(staging, 'pdfshare.db'))
    await fsyncPath(join(staging, 'pdfshare.db'))
    // The restored data dir is the backed-up one again: same id on both sides, so it starts. A backup from
    // before ids has none; its first start adopts it.
    const id = await idOf(join(staging, 'pdfshare.db'))
    if (id) await writeDataDirId(layout, id)
    if (!secretProblem) {
      await copyFile(join(source, 'jwt-secret'), layout.secretFile)
      await chmod(layout.secretFile, 0o600)
    }
    await fsyncPath(staging)
    if (existsSync(dataDir)) await rmdir(dataDir) // empty, checked above
    await rename(staging, dataDir)
    await fsyncPath(dirname(dataDir))
    return manifest
  } catch (error) {
    if (target.storage !== 'local') for (const key of put) await blobs.delete(key).catch(() => undefined)
    await rm(staging, { recursive: true, force: true })
    throw error
  }
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
