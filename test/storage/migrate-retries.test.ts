import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { recordedPdfs } from '../../src/core/files/recorded-pdfs'
import { migrateBlobs } from '../../src/maintenance/migrate-storage'
import type { BlobStore } from '../../src/storage/blob-store'
import { blobPathOf, createLocalBlobStore } from '../../src/storage/local-blob-store'
import { StoreUnavailable } from '../../src/storage/s3-requests'
import { startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

// `storage migrate` meets a store that cannot serve for a moment (StoreUnavailable: a time limit or a 5xx): the
// PDF's copy is tried again after a pause, from the check at the target, so nothing is copied twice and nothing
// is lost; other errors end the run at once. The target here is a local store whose first requests fail as an
// unavailable bucket's do (the real bucket's time limits are s3-timeouts.test.ts's).
const server = await startTestApp()
const owner = await server.user()
for (const text of ['one', 'two', 'three']) await uploadPdf(server, owner, { bytes: makePdf({ text: () => text }), name: `${text}.pdf` })
const rows = await recordedPdfs(server.ctx)
const root = mkdtempSync(join(tmpdir(), 'pdfshare-migrate-retries-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

let targets = 0
type Kind = 'keys' | 'stat' | 'put'
/** A fresh local store whose first requests of each kind (as many as `failures` says) throw `error()`. */
function target(failures: Partial<Record<Kind, number>>, error: () => Error = () => new StoreUnavailable('the S3 store answered 503')) {
  const dir = join(root, `target-${++targets}`)
  for (const sub of ['blobs', 'tmp', 'aside']) mkdirSync(join(dir, sub), { recursive: true })
  const store = createLocalBlobStore({ root: join(dir, 'blobs'), tempDir: join(dir, 'tmp'), asideDir: join(dir, 'aside') })
  const left = { keys: 0, stat: 0, put: 0, ...failures }
  const maybeFail = (kind: Kind) => {
    if (left[kind]-- > 0) throw error()
  }
  const flaky: BlobStore = {
    ...store,
    async stat(key) {
      maybeFail('stat')
      return store.stat(key)
    },
    async put(key, source) {
      maybeFail('put')
      return store.put(key, source)
    },
    async *keys() {
      maybeFail('keys')
      yield* store.keys()
    },
  }
  return {
    store: flaky,
    bytesOf: (key: string) => new Uint8Array(readFileSync(join(dir, 'blobs', blobPathOf(key)))),
    heal: () => Object.assign(left, { keys: 0, stat: 0, put: 0 }),
  }
}

test('a store unavailable for a moment: each PDF is tried again after a pause, and every one arrives once, checked', async () => {
  const { store, bytesOf } = target({ keys: 1, stat: 2, put: 1 })
  const retries: string[] = []
  const report = await migrateBlobs(server.ctx, store, {
    unknownAtTarget: 'refuse',
    retryPausesMs: [1, 1, 1],
    onRetry: (what, error) => retries.push(`${what}: ${error.message}`),
  })
  expect(retries.length).toBe(4)
  expect(retries[0]).toBe('listing the target: the S3 store answered 503')
  expect(retries.slice(1).every((line) => line.startsWith('the PDF of file '))).toBe(true)
  expect(report).toMatchObject({ files: 3, copied: 3, skipped: 0, problems: [] })
  for (const row of rows) expect(sha256(bytesOf(row.blobKey))).toBe(row.sha256)
})

test('a store that stays unavailable ends the run with its error once the pauses are spent; once it is back, a rerun finishes', async () => {
  const { store, bytesOf, heal } = target({ keys: 1000 })
  const retries: number[] = []
  const failure = await migrateBlobs(server.ctx, store, {
    unknownAtTarget: 'refuse',
    retryPausesMs: [1, 2],
    onRetry: (_, __, pause) => retries.push(pause),
  }).catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(StoreUnavailable)
  expect(retries).toEqual([1, 2]) // the listing, tried three times
  heal()
  expect(await migrateBlobs(server.ctx, store, { unknownAtTarget: 'refuse' })).toMatchObject({ copied: 3, problems: [] })
  for (const row of rows) expect(sha256(bytesOf(row.blobKey))).toBe(row.sha256)
})

test('another error (a refused request, a full disk) is not tried again: the run ends at once', async () => {
  const { store } = target({ keys: 1 }, () => new Error('the S3 store answered 403 to a list'))
  const retries: string[] = []
  const failure = await migrateBlobs(server.ctx, store, {
    unknownAtTarget: 'refuse',
    retryPausesMs: [1, 1, 1],
    onRetry: (what) => retries.push(what),
  }).catch((error: unknown) => error)
  expect(String(failure)).toContain('403')
  expect(retries).toEqual([])
})
