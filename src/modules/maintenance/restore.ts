import { createClient } from '@libsql/client'
import { chmod, copyFile, mkdir, readFile, rename, rm, rmdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { AppError } from '../../errors'
import { randomId } from '../../lib/ids'
import { layoutOf } from '../../data-dir'
import { storedId, writeDataDirId } from '../../data-dir-id'
import { createLocalBlobStore, fsyncPath } from '../../storage/local-blob-store'
import { assertEmptyDir, BACKUP_DATABASE, BACKUP_MANIFEST, rowsOf, type BackupManifest } from './backup'

/**
 * Brings a backup back into an empty data dir. Every blob is checked against the snapshot (size and
 * SHA-256) before anything is put in place; the data dir is assembled beside it and renamed into place at
 * the end, so an interrupted restore leaves no half-restored data dir behind.
 */
export async function restoreFrom(source: string, dataDir: string): Promise<BackupManifest> {
  const manifestText = await readFile(join(source, BACKUP_MANIFEST), 'utf8').catch(() => undefined)
  if (!manifestText) throw new AppError(400, 'invalid_request', `${source} is not a complete pdfshare backup (no ${BACKUP_MANIFEST})`)
  const manifest = JSON.parse(manifestText) as BackupManifest
  if (manifest.format !== 1) throw new AppError(400, 'invalid_request', `backup format ${manifest.format} is not supported by this version`)
  await assertEmptyDir(dataDir, 'the data dir')

  const staging = join(dirname(dataDir), `.${randomId(6)}.restoring`)
  try {
    const layout = layoutOf(staging)
    await mkdir(layout.tmp, { recursive: true, mode: 0o700 })
    await mkdir(layout.previews, { recursive: true, mode: 0o700 })
    const from = createLocalBlobStore(join(source, 'blobs'))
    const to = createLocalBlobStore(layout.blobs)
    for (const row of await rowsOf(join(source, BACKUP_DATABASE))) {
      const blob = from.file(row.blobKey)
      if (!(await blob.exists()) || blob.size !== row.size) {
        throw new AppError(400, 'invalid_request', `the backup is damaged: the PDF of file ${row.id} is missing or has the wrong size`)
      }
      const temp = join(layout.tmp, `${randomId(8)}.part`)
      const hasher = new Bun.CryptoHasher('sha256')
      const writer = Bun.file(temp).writer()
      for await (const chunk of blob.stream()) {
        hasher.update(chunk)
        writer.write(chunk)
      }
      await writer.end()
      if (hasher.digest('hex') !== row.sha256) throw new AppError(400, 'invalid_request', `the backup is damaged: the PDF of file ${row.id} does not match its SHA-256`)
      await fsyncPath(temp)
      await to.put(row.blobKey, temp)
    }
    await copyFile(join(source, BACKUP_DATABASE), join(staging, 'pdfshare.db'))
    await fsyncPath(join(staging, 'pdfshare.db'))
    // The restored data dir is the backed-up one again: same id on both sides, so it starts. A backup from
    // before ids has none; its first start adopts it.
    const id = await idOf(join(staging, 'pdfshare.db'))
    if (id) await writeDataDirId(layout, id)
    if (existsSync(join(source, 'jwt-secret'))) {
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

async function idOf(databasePath: string): Promise<string | undefined> {
  const client = createClient({ url: `file:${databasePath}` })
  try {
    return await storedId(client)
  } finally {
    client.close()
  }
}
