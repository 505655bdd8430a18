import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalBlobStore } from '../../src/storage/local-blob-store'
import { blobStoreContract } from './blob-store-contract'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-local-blobs-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let stores = 0

function localStore() {
  const dir = join(root, `store-${++stores}`)
  const options = { root: join(dir, 'blobs'), tempDir: join(dir, 'tmp'), asideDir: join(dir, 'orphans') }
  mkdirSync(options.tempDir, { recursive: true })
  let uploads = 0
  return {
    options,
    store: createLocalBlobStore(options),
    async uploadFile(bytes: Uint8Array) {
      const path = join(options.tempDir, `upload-${++uploads}.part`)
      writeFileSync(path, bytes)
      return path
    },
  }
}

blobStoreContract('the local store', async () => localStore())

test('blobs keep the layout existing data dirs have: <root>/<first two characters>/<key>.pdf, owner-only', async () => {
  const { store, options } = localStore()
  await store.put('abcdefgh12345678', { stream: new Response('%PDF-1.7 streamed').body! })
  const path = join(options.root, 'ab', 'abcdefgh12345678.pdf')
  expect(readFileSync(path, 'utf8')).toBe('%PDF-1.7 streamed')
  expect((statSync(path).mode & 0o777).toString(8)).toBe('600')
  // A blob written by an earlier version is found by its key.
  mkdirSync(join(options.root, 'zz'), { recursive: true })
  writeFileSync(join(options.root, 'zz', 'zzWrittenEarlier0001.pdf'), '%PDF-1.7 old')
  expect((await Array.fromAsync(store.keys())).sort()).toEqual(['abcdefgh12345678', 'zzWrittenEarlier0001'])
  expect(await store.stat('zzWrittenEarlier0001')).toEqual({ size: 12, modifiedAt: expect.any(Number) })
})

test('a streamed put leaves nothing in the temp folder, also when the stream fails', async () => {
  const { store, options } = localStore()
  await store.put('streamedKey00001', { stream: new Response('%PDF-1.7').body! })
  const failing = new ReadableStream({ pull: (controller) => controller.error(new Error('gone')) })
  await expect(store.put('streamedKey00002', { stream: failing })).rejects.toThrow('gone')
  expect(readdirSync(options.tempDir)).toEqual([])
})

test('moveAside puts the blob in the aside folder as <key>.pdf, bytes intact', async () => {
  const { store, options, uploadFile } = localStore()
  await store.put('asideKey00000001', { file: await uploadFile(new TextEncoder().encode('%PDF-1.7 aside')) })
  await store.moveAside('asideKey00000001')
  expect(readFileSync(join(options.asideDir, 'asideKey00000001.pdf'), 'utf8')).toBe('%PDF-1.7 aside')
})

test('a key that could never have been generated is refused before it becomes a path', async () => {
  const { store, options } = localStore()
  for (const key of ['../../etc/passwd', 'ab/../../x1234567', 'short']) {
    expect(() => store.body(key)).toThrow('invalid blob key')
    await expect(store.stat(key)).rejects.toThrow('invalid blob key')
  }
  expect(existsSync(options.root)).toBe(false)
})
