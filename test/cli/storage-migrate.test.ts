import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sharedCeph } from '../../scripts/support/ceph'
import { run, PDFSHARE_PROGRAM, ROOT, startServer } from '../../scripts/support/process'
import { createS3BlobStore } from '../../src/storage/s3-blob-store'
import { uploadPdfTo } from '../support/uploads'
import { recordedRowsIn, s3SettingsOf } from '../support/s3'
import { expectEveryPdfServed, installWithFiles } from '../support/installs'
import { testRunEnv } from '../../scripts/support/test-run'

// `pdfshare storage migrate` as a spawned process, between a data dir and a fresh bucket of a real Ceph
// object gateway; then a server on the migrated install, which must serve every PDF byte for byte.
const gateway = await sharedCeph()
const root = mkdtempSync(join(tmpdir(), 'pdfshare-migrate-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let counter = 0

async function freshBucket() {
  const name = `pdfshare-migrate-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`
  await gateway.createBucket(name)
  const client = new Bun.S3Client({
    endpoint: gateway.endpoint,
    bucket: name,
    region: gateway.region,
    accessKeyId: gateway.accessKeyId,
    secretAccessKey: gateway.secretAccessKey,
  })
  // The S3 settings without PDFSHARE_STORAGE: the install still runs on local storage when it migrates.
  const settings = {
    ...s3SettingsOf(gateway, name),
  }
  const store = createS3BlobStore({ client, tempDir: root })
  return {
    name,
    settings,
    object: (blobKey: string) => client.file(`blobs/${blobKey}.pdf`),
    keys: async () => (await Array.fromAsync(store.keys())).sort(),
  }
}

const sha256 = (bytes: ArrayBuffer | Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

/** A local-storage install with `count` files (of about `size` bytes); with `replacements`, the first one is replaced that often. */
async function localInstall(count: number, { replacements = 0, size = 0 } = {}) {
  const dataDir = join(root, `data-${++counter}`)
  const token = await installWithFiles(dataDir, { count, replacements, size })
  return {
    dataDir,
    token,
    rows: await recordedRowsIn(dataDir),
    local: (blobKey: string) => join(dataDir, 'blobs', blobKey.slice(0, 2), `${blobKey}.pdf`),
  }
}

type Row = Awaited<ReturnType<typeof recordedRowsIn>>[number]
const keysOf = (rows: Row[]) => rows.map((row) => row.blobKey).sort()

/** Starts a server on the install and checks it serves every recorded PDF (current and kept versions) byte for byte. */
async function expectServed(dataDir: string, token: string, rows: Row[], env: Record<string, string>) {
  const server = await startServer(['--data', dataDir], { env })
  try {
    await expectEveryPdfServed(server.url, token, rows)
  } finally {
    await server.stop()
  }
}

const flipByte = (bytes: Uint8Array) => {
  bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff
  return bytes
}

describe('pdfshare storage migrate', () => {
  test('local → S3: every PDF and kept version, checked; a rerun skips all, a damaged or missing copy is copied again; the S3 server serves them; and back to local', async () => {
    const { dataDir, token, rows, local } = await localInstall(3, { replacements: 2 })
    expect(rows).toHaveLength(5) // 3 current PDFs and 2 kept versions of the first file
    const bucket = await freshBucket()
    // Each run's exit code is checked first, with its last words: a failure then says why, not only what is missing.
    const migrate = async (to: string, extra: Record<string, string> = {}) => {
      const result = await run(['storage', 'migrate', '--to', to, '--data', dataDir], { env: { ...bucket.settings, ...extra } })
      expect({ code: result.code, stderr: result.stderr.slice(-2000) }).toMatchObject({ code: 0 })
      return result
    }

    const first = await migrate('s3')
    expect(first.stdout).toContain('3 file(s) and 2 previous version(s): copied 5 PDF(s)')
    expect(first.stdout).toContain('skipped 0 already there')
    expect(first.stdout).toContain("nothing was deleted: the PDFs are still in the data dir's blobs/")
    expect(first.stderr.trim().split('\n').at(-1)).toStartWith('next: set PDFSHARE_STORAGE=s3')
    expect(first.code).toBe(0)
    expect(await bucket.keys()).toEqual(keysOf(rows))
    for (const row of rows) {
      expect(sha256(await bucket.object(row.blobKey).arrayBuffer())).toBe(row.sha256)
      expect(sha256(readFileSync(local(row.blobKey)))).toBe(row.sha256) // the source is untouched
    }

    const again = await migrate('s3')
    expect(again.stdout).toContain('copied 0 PDF(s)')
    expect(again.stdout).toContain('skipped 5 already there')
    expect(again.code).toBe(0)

    // A copy with other bytes of the same size, and one that is gone: both copied again, the rest skipped.
    const [damaged, missing] = rows
    await bucket.object(damaged!.blobKey).write(flipByte(new Uint8Array(await bucket.object(damaged!.blobKey).arrayBuffer())))
    await bucket.object(missing!.blobKey).delete()
    const repaired = await migrate('s3')
    expect(repaired.stdout).toContain(`replaced: file ${damaged!.fileId}`)
    expect(repaired.stdout).toContain('copied 2 PDF(s)')
    expect(repaired.stdout).toContain('skipped 3 already there')
    expect(repaired.code).toBe(0)
    expect(sha256(await bucket.object(damaged!.blobKey).arrayBuffer())).toBe(damaged!.sha256)

    // The operator's next step: PDFSHARE_STORAGE=s3 on the same data dir and database, and the old copy removed.
    rmSync(join(dataDir, 'blobs'), { recursive: true })
    const s3 = { ...bucket.settings, PDFSHARE_STORAGE: 's3' }
    expect((await run(['verify', '--data', dataDir], { env: s3 })).code).toBe(0)
    await expectServed(dataDir, token, rows, s3)

    // And back: the bucket's PDFs into the data dir, served by a local server.
    const back = await migrate('local', { PDFSHARE_STORAGE: 's3' })
    expect(back.stdout).toContain('copied 5 PDF(s)')
    expect(back.stdout).toContain(`nothing was deleted: the PDFs are still in the S3 bucket ${bucket.name}`)
    expect(back.stderr.trim().split('\n').at(-1)).toStartWith('next: set PDFSHARE_STORAGE=local')
    expect(back.code).toBe(0)
    for (const row of rows) expect(sha256(readFileSync(local(row.blobKey)))).toBe(row.sha256)
    expect(await bucket.keys()).toEqual(keysOf(rows))
    await expectServed(dataDir, token, rows, {})
  })

  test('killed mid-way (SIGKILL), a rerun finishes the job and does not copy again what had arrived', async () => {
    const { dataDir, rows } = await localInstall(24, { size: 2 * 1024 * 1024 })
    const bucket = await freshBucket()
    const proc = Bun.spawn([...PDFSHARE_PROGRAM, 'storage', 'migrate', '--to', 's3', '--data', dataDir], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...testRunEnv(), ...bucket.settings },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    let arrived = 0
    while (arrived === 0 && proc.exitCode === null) {
      arrived = (await bucket.keys()).length
      await Bun.sleep(10)
    }
    proc.kill('SIGKILL')
    await proc.exited
    const before = (await bucket.keys()).length
    expect(before).toBeGreaterThanOrEqual(1)
    expect(before).toBeLessThan(rows.length) // killed before the end, or the test proves nothing
    expect(existsSync(join(dataDir, 'server.pid'))).toBe(true) // the killed run's lock, naming a dead process

    const rerun = await run(['storage', 'migrate', '--to', 's3', '--data', dataDir], { env: bucket.settings })
    // A PUT the kill caught after its last byte may still have completed at the gateway after the count above.
    const [, copied, skipped] = /copied (\d+) PDF\(s\).*skipped (\d+) already there/.exec(rerun.stdout) ?? []
    expect(Number(skipped)).toBeGreaterThanOrEqual(before)
    expect(Number(copied)).toBeGreaterThanOrEqual(1)
    expect(Number(copied) + Number(skipped)).toBe(rows.length)
    expect(rerun.code).toBe(0)
    expect(await bucket.keys()).toEqual(keysOf(rows))
    for (const row of rows) expect(sha256(await bucket.object(row.blobKey).arrayBuffer())).toBe(row.sha256)
    expect(existsSync(join(dataDir, 'server.pid'))).toBe(false)
  })

  test('a source PDF that does not match its SHA-256 is reported by file and not copied; the others are; exit 1', async () => {
    const { dataDir, rows, local } = await localInstall(2)
    const [bad, good] = rows
    writeFileSync(local(bad!.blobKey), flipByte(readFileSync(local(bad!.blobKey))))
    const bucket = await freshBucket()
    const result = await run(['storage', 'migrate', '--to', 's3', '--data', dataDir], { env: bucket.settings })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      `problem: file ${bad!.fileId} ("report.pdf", owner alice): its PDF at the source does not match its recorded SHA-256; not copied`,
    )
    expect(result.stdout).toContain('copied 1 PDF(s)')
    expect(result.stderr).toContain('not complete: 1 PDF(s) could not be copied (see above); keep PDFSHARE_STORAGE=local')
    expect(result.stderr).not.toContain('next: set')
    expect(await bucket.keys()).toEqual([good!.blobKey])
    expect(existsSync(local(bad!.blobKey))).toBe(true)
  })

  test('clear one-line refusals: missing S3 settings, no such bucket, unreachable endpoint, a running server, a bucket of another install', async () => {
    const { dataDir, token } = await localInstall(1)
    const bucket = await freshBucket()
    const migrate = (env: Record<string, string>) => run(['storage', 'migrate', '--to', 's3', '--data', dataDir], { env })
    const refusals: [Record<string, string>, number, string][] = [
      [
        { PDFSHARE_S3_BUCKET: bucket.name },
        2,
        'storage migrate --to s3 needs PDFSHARE_S3_ENDPOINT, PDFSHARE_S3_ACCESS_KEY_ID, PDFSHARE_S3_SECRET_ACCESS_KEY (not set)',
      ],
      [
        { ...bucket.settings, PDFSHARE_S3_BUCKET: 'no-such-bucket' },
        1,
        `the S3 bucket no-such-bucket does not exist at ${gateway.endpoint}`,
      ],
      [{ ...bucket.settings, PDFSHARE_S3_ENDPOINT: 'http://127.0.0.1:9' }, 1, 'cannot reach the S3 endpoint http://127.0.0.1:9'],
      [{ ...bucket.settings, PDFSHARE_S3_SECRET_ACCESS_KEY: 'wrong' }, 1, `the S3 endpoint ${gateway.endpoint} refused the keys`],
    ]
    for (const [env, code, message] of refusals) {
      const result = await migrate(env)
      expect(result.stderr).toContain(`pdfshare: ${message}`)
      expect(result.stderr).not.toContain('    at ') // no stack trace
      expect(result.code).toBe(code)
    }
    expect((await run(['storage', 'migrate', '--data', dataDir])).stderr).toContain('storage migrate needs --to s3 or --to local')

    const server = await startServer(['--data', dataDir])
    try {
      const refused = await migrate(bucket.settings)
      expect(refused.stderr).toContain(`a server (pid ${server.proc.pid}) is running on this data dir; stop it before storage migrate`)
      expect(refused.code).toBe(1)
      await uploadPdfTo(server.url, token) // the server is unharmed
    } finally {
      await server.stop()
    }

    await bucket.object('AAAAAAAAAAAAAAAA').write('another install') // a blob key this database does not know
    const foreign = await migrate(bucket.settings)
    expect(foreign.stderr).toContain('the target already holds 1 PDF(s) that this database does not know')
    expect(foreign.code).toBe(1)
    expect(await bucket.keys()).toEqual(['AAAAAAAAAAAAAAAA'])
  })
})
