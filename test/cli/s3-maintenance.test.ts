import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sharedCeph } from '../../scripts/support/ceph'
import { run, startServer } from '../../scripts/support/process'
import { createS3BlobStore } from '../../src/storage/s3-blob-store'
import { recordedRowsIn, s3SettingsOf } from '../support/s3'
import { expectEveryPdfServed, installWithFiles } from '../support/installs'

// verify, backup and restore as commands (spawned processes) on an install whose PDFs live in a bucket of a
// real Ceph object gateway; one fresh bucket per install, so that each test sees only its own objects.
const gateway = await sharedCeph()
const root = mkdtempSync(join(tmpdir(), 'pdfshare-s3-ops-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let counter = 0
const freshDir = (name: string) => join(root, `${name}-${++counter}`)

async function freshBucket() {
  const name = `pdfshare-ops-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`
  await gateway.createBucket(name)
  const client = new Bun.S3Client({
    endpoint: gateway.endpoint,
    bucket: name,
    region: gateway.region,
    accessKeyId: gateway.accessKeyId,
    secretAccessKey: gateway.secretAccessKey,
  })
  const env = {
    PDFSHARE_STORAGE: 's3',
    ...s3SettingsOf(gateway, name),
  }
  const store = createS3BlobStore({ client, tempDir: root })
  return { name, env, object: (blobKey: string) => client.file(`blobs/${blobKey}.pdf`), keys: () => Array.fromAsync(store.keys()) }
}

const sha256 = (bytes: ArrayBuffer | Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

/** An S3 install with a user, a token and `count` files; with `replacements`, the first file is replaced that often. */
async function s3Install(count: number, replacements = 0) {
  const bucket = await freshBucket()
  const dataDir = freshDir('data')
  const cli = (args: string[]) => run([...args, '--data', dataDir], { env: bucket.env })
  const token = await installWithFiles(dataDir, { count, replacements, env: bucket.env })
  return { bucket, dataDir, token, cli, rows: await recordedRowsIn(dataDir) }
}

const localBlobs = (dir: string) =>
  existsSync(join(dir, 'blobs'))
    ? readdirSync(join(dir, 'blobs'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    : []

describe('pdfshare verify with S3 storage', () => {
  test('healthy: exit 0; an object overwritten with other bytes of the same size and a missing one: reported, exit 1', async () => {
    const { bucket, cli, rows } = await s3Install(3)
    const ok = await cli(['verify'])
    expect(ok.stdout).toContain('checked 3 file(s)')
    expect(ok.stdout).toContain('ok: every file is present')
    expect(ok.code).toBe(0)

    const [damaged, missing] = rows
    const bytes = new Uint8Array(await bucket.object(damaged!.blobKey).arrayBuffer())
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff
    await bucket.object(damaged!.blobKey).write(bytes)
    expect((await bucket.object(damaged!.blobKey).stat()).size).toBe(bytes.length)
    await bucket.object(missing!.blobKey).delete()

    const bad = await cli(['verify'])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain(`problem: file ${damaged!.fileId}`)
    expect(bad.stdout).toContain('SHA-256 is')
    expect(bad.stdout).toContain(`problem: file ${missing!.fileId}`)
    expect(bad.stdout).toContain('missing from the blob store')
    expect(bad.stdout).toContain('2 damaged file(s), 0 unreferenced blob(s)')
  })
})

describe('pdfshare backup and restore with S3 storage', () => {
  test('a backup of an S3 install is a local folder; restored into an empty bucket, the install starts and serves every file and version', async () => {
    const { bucket, cli, token, rows } = await s3Install(2, 2)
    expect(rows).toHaveLength(4) // 2 current PDFs and 2 kept versions of the first file
    const backupDir = freshDir('backup')
    const backup = await cli(['backup', backupDir])
    expect(backup.code).toBe(0)
    expect(backup.stdout).toContain('backed up 2 file(s) and 2 previous version(s)')
    expect(localBlobs(backupDir)).toHaveLength(4)
    for (const row of rows) {
      const copied = readFileSync(join(backupDir, 'blobs', row.blobKey.slice(0, 2), `${row.blobKey}.pdf`))
      expect(sha256(copied)).toBe(row.sha256)
    }

    const target = await freshBucket()
    const restoredDir = freshDir('restored')
    const restored = await run(['restore', backupDir, '--data', restoredDir], { env: target.env })
    expect(restored.stdout).toContain('restored 2 file(s) and 2 previous version(s)')
    expect(restored.stdout).toContain(`PDFs in the S3 bucket ${target.name}`)
    expect(restored.code).toBe(0)
    expect((await target.keys()).sort()).toEqual(rows.map((row) => row.blobKey).sort())
    expect(localBlobs(restoredDir)).toEqual([]) // the PDFs went into the bucket, not the data dir
    expect((await bucket.keys()).sort()).toEqual(rows.map((row) => row.blobKey).sort()) // the source is untouched

    const verified = await run(['verify', '--data', restoredDir], { env: target.env })
    expect(verified.stdout).toContain('checked 2 file(s) and 2 previous version(s)')
    expect(verified.code).toBe(0)

    const server = await startServer(['--data', restoredDir], { env: target.env })
    try {
      await expectEveryPdfServed(server.url, token, rows)
    } finally {
      await server.stop()
    }
  })

  test('restore refuses a bucket that already holds pdfshare PDFs, and changes nothing', async () => {
    const { bucket, cli, rows } = await s3Install(1)
    const backupDir = freshDir('backup')
    expect((await cli(['backup', backupDir])).code).toBe(0)
    const restoredDir = freshDir('restored')
    const refused = await run(['restore', backupDir, '--data', restoredDir], { env: bucket.env })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`the S3 bucket ${bucket.name} already holds pdfshare PDFs`)
    expect(existsSync(restoredDir)).toBe(false)
    expect(await bucket.keys()).toEqual([rows[0]!.blobKey])
    expect(readdirSync(root).filter((name) => name.includes('restoring'))).toEqual([])
  })
})
