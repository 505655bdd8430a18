import { createClient } from '@libsql/client'
import { chmod, copyFile, lstat, mkdir, readFile, rename, rm, rmdir } from 'node:fs/promises'
import { existsSync, type Stats } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { AppError } from '../../errors'
import { randomId } from '../../lib/ids'
import { layoutOf } from '../../data-dir/layout'
import { storedId, writeDataDirId } from '../../data-dir/pairing'
import { fsyncPath } from '../../storage/fsync'
import { blobPathOf, createLocalBlobStore } from '../../storage/local-blob-store'
import { assertEmptyDir, BACKUP_DATABASE, BACKUP_MANIFEST, rowsOf, type BackupManifest, type SnapshotRow } from './backup'

const damaged = (message: string) => new AppError(400, 'invalid_request', message)

/**
 * Brings a backup back into an empty data dir. Every blob is checked against the snapshot (size and
 * SHA-256) before anything is put in place; the data dir is assembled beside it and renamed into place at
 * the end, so an interrupted restore leaves no half-restored data dir behind.
 *
 * Only regular files are taken from the backup, never what a symbolic link, device or fifo leads to: a
 * backup may come from elsewhere, and restore may run as a user who can read more than its author (a
 * `jwt-secret` linked to a root-only file would be copied into the data dir). All bad PDFs are reported
 * together, so one run tells what is wrong with the whole backup.
 */
export async function restoreFrom(source: string, dataDir: string): Promise<BackupManifest> {
  const manifestProblem = await notRegular(source, BACKUP_MANIFEST)
  if (manifestProblem === 'missing') throw damaged(`${source} is not a complete pdfshare backup (no ${BACKUP_MANIFEST})`)
  if (manifestProblem) throw damaged(`the backup is damaged: ${BACKUP_MANIFEST} ${manifestProblem}`)
  const manifest = JSON.parse(await readFile(join(source, BACKUP_MANIFEST), 'utf8')) as BackupManifest
  if (manifest.format !== 1) throw damaged(`backup format ${manifest.format} is not supported by this version`)
  const databaseProblem = await notRegular(source, BACKUP_DATABASE)
  if (databaseProblem) throw damaged(`the backup is damaged: ${BACKUP_DATABASE} ${databaseProblem}`)
  const secretProblem = await notRegular(source, 'jwt-secret')
  if (secretProblem && secretProblem !== 'missing') throw damaged(`the backup is damaged: jwt-secret ${secretProblem}`)
  await assertEmptyDir(dataDir, 'the data dir')

  const staging = join(dirname(dataDir), `.${randomId(6)}.restoring`)
  try {
    const layout = layoutOf(staging)
    await mkdir(layout.tmp, { recursive: true, mode: 0o700 })
    await mkdir(layout.previews, { recursive: true, mode: 0o700 })
    const rows = await rowsOf(join(source, BACKUP_DATABASE))
    const problems: string[] = []
    for (const row of rows) {
      const problem = await restoreBlob(source, row, layout)
      if (problem) problems.push(`file ${row.id}: ${problem}`)
    }
    if (problems.length > 0) throw damaged(`the backup is damaged: ${problems.length} of ${rows.length} PDF(s) cannot be restored: ${problems.join('; ')}`)

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
    await rm(staging, { recursive: true, force: true })
    throw error
  }
}

/** Copies one blob into the staging data dir if it is intact; otherwise says what is wrong with it. */
async function restoreBlob(source: string, row: SnapshotRow, layout: ReturnType<typeof layoutOf>): Promise<string | undefined> {
  const relative = join('blobs', blobPathOf(row.blobKey))
  const problem = await notRegular(source, relative)
  if (problem) return problem === 'missing' ? 'its PDF is missing' : `its PDF ${problem}`
  const blob = Bun.file(join(source, relative))
  if (blob.size !== row.size) return `its PDF has ${blob.size} bytes, ${row.size} recorded`
  const temp = join(layout.tmp, `${randomId(8)}.part`)
  const hasher = new Bun.CryptoHasher('sha256')
  const writer = Bun.file(temp).writer()
  for await (const chunk of blob.stream()) {
    hasher.update(chunk)
    writer.write(chunk)
  }
  await writer.end()
  if (hasher.digest('hex') !== row.sha256) {
    await rm(temp, { force: true })
    return 'its PDF does not match its SHA-256'
  }
  await fsyncPath(temp)
  await createLocalBlobStore(layout.blobs).put(row.blobKey, temp)
  return undefined
}

/**
 * Why `relative` inside `root` is not a regular file reached through real directories: 'missing', or
 * "is not a regular file (a symbolic link)" and the like. undefined when it is one. Every component is
 * looked at with lstat, so no symbolic link is followed, not even a linked folder on the way.
 */
async function notRegular(root: string, relative: string): Promise<string | undefined> {
  const parts = relative.split(sep)
  let path = root
  for (let i = 0; i < parts.length; i++) {
    path = join(path, parts[i]!)
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined
      throw error
    })
    if (!info) return 'missing'
    const last = i === parts.length - 1
    if (last ? !info.isFile() : !info.isDirectory()) {
      const what = `(${kindOf(info)})`
      return last ? `is not a regular file ${what}` : `is inside ${parts.slice(0, i + 1).join(sep)}, which is not a folder ${what}`
    }
  }
  return undefined
}

function kindOf(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symbolic link'
  if (info.isFIFO()) return 'a fifo'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isSocket()) return 'a socket'
  if (info.isDirectory()) return 'a folder'
  return 'a regular file'
}

async function idOf(databasePath: string): Promise<string | undefined> {
  const client = createClient({ url: `file:${databasePath}` })
  try {
    return await storedId(client)
  } finally {
    client.close()
  }
}
