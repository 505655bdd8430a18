import { expect, test } from 'bun:test'
import { utimesSync, writeFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { randomId } from '../../src/lib/ids'
import { SHARED_SWEEP_MIN_AGE_MS, sweepUnreferencedBlobs } from '../../src/maintenance/sweep'
import { verifyStore } from '../../src/maintenance/verify'
import { removeLeftoverTempFiles } from '../../src/storage/temp-files'
import { startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

// With several instances on one database and bucket, an instance starting up must not take another's upload
// in progress (its blob stored, its row not yet committed; its temp file being written) for a leftover.
const server = await startTestApp()
const owner = await server.user('owner')

test('the shared start-up sweep leaves a young blob without a row alone, and moves it once it is old', async () => {
  const kept = await uploadPdf(server, owner)
  const inFlight = randomId()
  await server.ctx.blobs.put(inFlight, { stream: new Blob([makePdf()]).stream() })
  expect(await sweepUnreferencedBlobs(server.ctx, { minAgeMs: SHARED_SWEEP_MIN_AGE_MS })).toBe(0)
  expect(await server.ctx.blobs.stat(inFlight)).toBeDefined()

  // A day later the upload can no longer be in progress: a leftover.
  const realNow = server.ctx.now
  server.ctx.now = () => realNow() + SHARED_SWEEP_MIN_AGE_MS + 1000
  try {
    expect(await sweepUnreferencedBlobs(server.ctx, { minAgeMs: SHARED_SWEEP_MIN_AGE_MS })).toBe(1)
  } finally {
    server.ctx.now = realNow
  }
  expect(await server.ctx.blobs.stat(inFlight)).toBeUndefined()
  expect((await server.call('GET', `/api/files/${kept.id}/content`, { token: owner.token })).status).toBe(200)
})

test('verify on a shared database reports a young blob without a row and leaves it, also with --repair; an old one it removes', async () => {
  const young = randomId()
  await server.ctx.blobs.put(young, { stream: new Blob([makePdf()]).stream() })
  const report = await verifyStore(server.ctx, { repair: true, recentMs: SHARED_SWEEP_MIN_AGE_MS })
  expect(report.orphans).toEqual([{ key: young, size: expect.any(Number), recent: true }])
  expect(report.removed).toBe(0)
  expect(await server.ctx.blobs.stat(young)).toBeDefined()
  const realNow = server.ctx.now
  server.ctx.now = () => realNow() + SHARED_SWEEP_MIN_AGE_MS + 1000
  try {
    const later = await verifyStore(server.ctx, { repair: true, recentMs: SHARED_SWEEP_MIN_AGE_MS })
    expect(later.orphans).toEqual([{ key: young, size: expect.any(Number), recent: false }])
    expect(later.removed).toBe(1)
  } finally {
    server.ctx.now = realNow
  }
  expect(await server.ctx.blobs.stat(young)).toBeUndefined()
})

test('shared temp clean-up removes only files nobody has written for the given time', async () => {
  const dir = server.ctx.layout.tmp
  writeFileSync(join(dir, 'being-written.part'), 'x')
  writeFileSync(join(dir, 'abandoned.part'), 'x')
  const hoursAgo = (Date.now() - 2 * 60 * 60 * 1000) / 1000
  utimesSync(join(dir, 'abandoned.part'), hoursAgo, hoursAgo)
  expect(await removeLeftoverTempFiles(dir, { untouchedForMs: 60 * 60 * 1000 })).toBe(1)
  expect(await readdir(dir)).toEqual(['being-written.part'])
  // The embedded server (no other instance) removes everything.
  expect(await removeLeftoverTempFiles(dir)).toBe(1)
  expect(await readdir(dir)).toEqual([])
})
