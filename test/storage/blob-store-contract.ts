import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import type { BlobStore } from '../../src/storage/blob-store'
import { BlobMismatch } from '../../src/storage/expected-bytes'

/** A store under test, and a way to make a finished local upload file for `put({ file })`. */
export type StoreUnderTest = { store: BlobStore; uploadFile(bytes: Uint8Array): Promise<string> }

let next = 0
const newKey = () => `contractKey${String(++next).padStart(6, '0')}`
const bytesOf = (size: number, seed = next) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) & 0xff)
const streamOf = (bytes: Uint8Array, chunk = 65_536) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += chunk) controller.enqueue(bytes.slice(offset, offset + chunk))
      controller.close()
    },
  })
const readAll = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer())
const bodyBytes = async (body: BodyInit) => new Uint8Array(await new Response(body).arrayBuffer())

/**
 * What every BlobStore promises, whatever keeps the bytes: the local store and the S3 store (on a real Ceph
 * radosgw) run the same cases.
 */
export function blobStoreContract(name: string, open: () => Promise<StoreUnderTest>) {
  describe(`${name}: the BlobStore contract`, () => {
    for (const from of ['file', 'stream'] as const) {
      test(`a blob put from a ${from} reads back whole and by range, through read, body and localFile`, async () => {
        const { store, uploadFile } = await open()
        const key = newKey()
        const bytes = bytesOf(300_000)
        await store.put(key, from === 'file' ? { file: await uploadFile(bytes) } : { stream: streamOf(bytes) })
        const before = Date.now()
        expect(await store.stat(key)).toEqual({ size: bytes.length, modifiedAt: expect.any(Number) })
        // Stored just now (S3 keeps Last-Modified to the second): what a shared sweep's age check reads.
        expect(Math.abs((await store.stat(key))!.modifiedAt - before)).toBeLessThan(60_000)
        expect(await readAll(store.read(key))).toEqual(bytes)
        expect(await readAll(store.read(key, { start: 65_000, end: 200_001 }))).toEqual(bytes.slice(65_000, 200_001))
        expect(await bodyBytes(await store.body(key))).toEqual(bytes)
        expect(await bodyBytes(await store.body(key, { start: 0, end: 1 }))).toEqual(bytes.slice(0, 1))
        const local = await store.localFile(key)
        expect(new Uint8Array(readFileSync(local.path))).toEqual(bytes)
        await local.release()
        expect(await Array.fromAsync(store.keys())).toContain(key)
      })
    }

    test('a put from a stream that errors, even after its last byte, stores nothing', async () => {
      const { store } = await open()
      const key = newKey()
      const failing = streamOf(bytesOf(200_000)).pipeThrough(
        new TransformStream({
          flush() {
            throw new Error('refused at the end')
          },
        }),
      )
      await expect(store.put(key, { stream: failing })).rejects.toThrow('refused at the end')
      expect(await store.stat(key)).toBeUndefined()
      expect(await Array.fromAsync(store.keys())).not.toContain(key)
    })

    test('a put from a stream checks the bytes it was told to expect: another size or SHA-256 stores nothing', async () => {
      const { store } = await open()
      const bytes = bytesOf(150_000)
      const sha256 = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
      const exact = newKey()
      await store.put(exact, { stream: streamOf(bytes), expected: { size: bytes.length, sha256 } })
      expect(await readAll(store.read(exact))).toEqual(bytes)
      for (const [kind, expected] of [
        ['size', { size: bytes.length - 1 }],
        ['sha256', { sha256: '0'.repeat(64) }],
      ] as const) {
        const key = newKey()
        const failure = await store.put(key, { stream: streamOf(bytes), expected }).then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(failure).toBeInstanceOf(BlobMismatch)
        expect((failure as BlobMismatch).kind).toBe(kind)
        expect(await store.stat(key)).toBeUndefined()
      }
    })

    test('a missing key: no stat, a read that errors, a delete that is no error', async () => {
      const { store } = await open()
      const key = newKey()
      expect(await store.stat(key)).toBeUndefined()
      await expect(readAll(store.read(key))).rejects.toThrow()
      await store.delete(key)
    })

    test('delete and moveAside take the key out of the store', async () => {
      const { store, uploadFile } = await open()
      const [deleted, movedAside] = [newKey(), newKey()]
      await store.put(deleted, { file: await uploadFile(bytesOf(10)) })
      await store.put(movedAside, { file: await uploadFile(bytesOf(10)) })
      await store.delete(deleted)
      await store.moveAside(movedAside)
      for (const key of [deleted, movedAside]) {
        expect(await store.stat(key)).toBeUndefined()
        expect(await Array.fromAsync(store.keys())).not.toContain(key)
      }
    })

    test('the upload file given to put is taken over', async () => {
      const { store, uploadFile } = await open()
      const path = await uploadFile(bytesOf(1000))
      await store.put(newKey(), { file: path })
      expect(existsSync(path)).toBe(false)
    })
  })
}
