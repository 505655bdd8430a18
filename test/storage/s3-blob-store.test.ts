import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CephGateway, sharedCeph } from '../../scripts/support/ceph'
import { createS3BlobStore, type S3BlobStoreOptions } from '../../src/storage/s3-blob-store'
import { BlobMismatch } from '../../src/storage/expected-bytes'
import { blobStoreContract } from './blob-store-contract'

// The real S3-compatible server: Debian's Ceph object gateway, one cluster for the whole test run.
const root = mkdtempSync(join(tmpdir(), 'pdfshare-s3-blobs-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let stores = 0

const clientOf = (gateway: CephGateway) =>
  new Bun.S3Client({
    endpoint: gateway.endpoint,
    bucket: gateway.bucket,
    region: gateway.region,
    accessKeyId: gateway.accessKeyId,
    secretAccessKey: gateway.secretAccessKey,
  })

/** A store of its own (its own prefix in the shared bucket, its own tmp/), so that `keys` sees only its blobs. */
async function s3Store(options: Partial<S3BlobStoreOptions> = {}) {
  const gateway = await sharedCeph()
  const client = clientOf(gateway)
  const dir = join(root, `store-${++stores}`)
  const tempDir = join(dir, 'tmp')
  mkdirSync(tempDir, { recursive: true })
  const prefix = `test-${process.pid}-${stores}-${Math.random().toString(36).slice(2, 8)}/`
  let uploads = 0
  return {
    client,
    prefix,
    tempDir,
    store: createS3BlobStore({ client, prefix, tempDir, ...options }),
    async uploadFile(bytes: Uint8Array) {
      const path = join(tempDir, `upload-${++uploads}.part`)
      writeFileSync(path, bytes)
      return path
    },
  }
}

blobStoreContract('the S3 store on Ceph radosgw', () => s3Store())
blobStoreContract('the S3 store with local copies on Ceph radosgw', () => s3Store({ copiesBytes: 10_000_000 }))

test('with local copies: a whole PDF is a local file of its size (sent with its length); a small range before any copy is read from the bucket', async () => {
  const { store, tempDir } = await s3Store({ copiesBytes: 10_000_000 })
  const bytes = new Uint8Array(200_000).map((_, i) => i % 251)
  await store.put('copiedKey0000001', { stream: new Response(bytes).body! })
  const ranged = await store.body('copiedKey0000001', { start: 10, end: 20 })
  expect(ranged).toEqual(bytes.slice(10, 20)) // bytes in memory: no copy yet, the first page does not wait for the whole file
  expect(readdirSync(tempDir)).toEqual([])
  const whole = (await store.body('copiedKey0000001')) as Blob
  expect(whole).toBeInstanceOf(Blob)
  expect(whole.size).toBe(bytes.length)
  expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes)
  const range = (await store.body('copiedKey0000001', { start: 10, end: 20 })) as Blob
  expect(range.size).toBe(10) // from the copy now
  expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.slice(10, 20))
  // localFile hands out the copy itself (in copies/ beside tmp/); close removes the copies.
  const local = await store.localFile('copiedKey0000001')
  const copies = join(tempDir, '..', 'copies')
  expect(local.path.startsWith(`${copies}/`)).toBe(true)
  await local.release()
  expect(readdirSync(copies)).toHaveLength(1)
  store.close?.()
  expect(readdirSync(copies)).toEqual([])
  expect(readdirSync(tempDir)).toEqual([])
})

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

test('objects are laid out as <prefix>blobs/<key>.pdf; moveAside moves one to <prefix>orphans/<key>.pdf', async () => {
  const { store, client, prefix } = await s3Store()
  await store.put('abcdefgh12345678', { stream: new Response('%PDF-1.7 streamed').body! })
  expect(await client.file(`${prefix}blobs/abcdefgh12345678.pdf`).text()).toBe('%PDF-1.7 streamed')
  await store.moveAside('abcdefgh12345678')
  expect(await client.file(`${prefix}orphans/abcdefgh12345678.pdf`).text()).toBe('%PDF-1.7 streamed')
  expect(await client.file(`${prefix}blobs/abcdefgh12345678.pdf`).exists()).toBe(false)
  expect(await Array.fromAsync(store.keys())).toEqual([])
})

test('a multipart-sized put (12 MiB) whose SHA-256 does not match leaves no object, not even for a moment', async () => {
  const { store, client, prefix } = await s3Store()
  const bytes = new Uint8Array(12 * 1024 * 1024).map((_, i) => i & 0xff)
  const key = 'mismatchKey000001'
  let seen = false
  const watching = (async () => {
    for (let i = 0; i < 200 && !seen; i++) {
      seen = await client.file(`${prefix}blobs/${key}.pdf`).exists()
      await Bun.sleep(20)
    }
  })()
  const failure = await store
    .put(key, { stream: new Response(bytes).body!, expected: { size: bytes.length, sha256: '0'.repeat(64) } })
    .then(
      () => undefined,
      (error: unknown) => error,
    )
  expect(failure).toBeInstanceOf(BlobMismatch)
  await watching
  expect(seen).toBe(false)
  expect(await store.stat(key)).toBeUndefined()
  // The same bytes with their real hash are stored whole.
  await store.put(key, { stream: new Response(bytes).body!, expected: { size: bytes.length, sha256: sha256(bytes) } })
  expect(await store.stat(key)).toEqual({ size: bytes.length, modifiedAt: expect.any(Number) })
  expect(sha256(new Uint8Array(await new Response(store.read(key, { start: 0, end: bytes.length })).arrayBuffer()))).toBe(sha256(bytes))
})

test('keys pages through the listing (a page size of 7 here, S3 returns at most 1000)', async () => {
  const { store } = await s3Store({ pageSize: 7 })
  const keys = Array.from({ length: 23 }, (_, i) => `pagedKey${String(i).padStart(8, '0')}`)
  await Promise.all(keys.map((key) => store.put(key, { stream: new Response(key).body! })))
  expect((await Array.fromAsync(store.keys())).sort()).toEqual(keys)
})

test('localFile downloads into tmp/ (owner-only) and release removes the copy', async () => {
  const { store, tempDir } = await s3Store()
  await store.put('localFileKey0001', { stream: new Response('%PDF-1.7 local').body! })
  const local = await store.localFile('localFileKey0001')
  expect(local.path.startsWith(tempDir)).toBe(true)
  expect(await Bun.file(local.path).text()).toBe('%PDF-1.7 local')
  await local.release()
  expect(readdirSync(tempDir)).toEqual([])
})

test('a key that is not one of ours is refused before any request', async () => {
  const { store } = await s3Store()
  await expect(store.stat('../other')).rejects.toThrow('invalid blob key')
})
