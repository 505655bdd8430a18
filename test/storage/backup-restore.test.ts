import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backupTo } from '../../src/maintenance/backup'
import { restoreFrom } from '../../src/maintenance/restore'
import { form, json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-backup-stores-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const server = await startTestApp()
const alice = await server.user('alice')
const uploaded = await json(
  await server.call('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: makePdf({ paddingBytes: 3_000_000 }) }) }),
)
/** A restore into `dataDir` with the test app's settings: local storage. */
const localTarget = (dataDir: string) => ({ ...server.ctx.config, dataDir })
const blobFiles = (dir: string) =>
  readdirSync(join(dir, 'blobs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))

test('a backup goes through the blob stores both ways: written like a data dir, restored byte for byte', async () => {
  const backup = join(root, 'backup-1')
  expect((await backupTo(server.ctx, backup)).files).toBe(1)
  expect(readdirSync(backup).sort()).toEqual(['backup.json', 'blobs', 'jwt-secret', 'pdfshare.db']) // its tmp/ is gone
  const restored = join(root, 'restored-1')
  await restoreFrom(backup, localTarget(restored))
  const [blob] = blobFiles(restored)
  expect(new Bun.CryptoHasher('sha256').update(readFileSync(blob!)).digest('hex')).toBe(uploaded.data.sha256)
  expect(readdirSync(join(restored, 'tmp'))).toEqual([])
})

test('a PDF whose bytes changed but kept their size is caught by its SHA-256 and restores nothing', async () => {
  const backup = join(root, 'backup-2')
  await backupTo(server.ctx, backup)
  const [blob] = blobFiles(backup)
  const bytes = readFileSync(blob!)
  bytes[1_000_000] = bytes[1_000_000]! ^ 0xff
  writeFileSync(blob!, bytes)
  const target = join(root, 'restored-2')
  await expect(restoreFrom(backup, localTarget(target))).rejects.toThrow(`file ${uploaded.data.id}: its PDF does not match its SHA-256`)
  expect(existsSync(target)).toBe(false)
  expect(readdirSync(root).filter((name) => name.includes('restoring'))).toEqual([])
})
