import { describe, expect, test } from 'bun:test'
import { issueToken } from '../../src/core/accounts/tokens/issue-token'
import { setQuota } from '../../src/core/accounts/users/users'
import { createApp } from '../../src/app'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { BASE, form, json, rawMultipart, startTestApp } from '../support/harness'
import { bearer } from '../support/bearer'
import { makePdf, pdfOfSize } from '../../scripts/support/pdf'
import { uploadPdf } from '../support/uploads'

describe('plan limits', () => {
  test('max files: the next upload → 403 quota_exceeded; deleting one frees a place', async () => {
    const server = await startTestApp()
    const alice = await server.user('alice')
    await setQuota(server.ctx, { name: 'alice', maxFiles: 2 })
    const up = () => server.call('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: makePdf() }) })
    const first = (await json(await up())).data
    expect((await up()).status).toBe(201)
    const refused = await up()
    expect(refused.status).toBe(403)
    expect(await json(refused)).toEqual({ success: false, error: 'File quota exceeded: 2 of 2 files used', code: 'quota_exceeded' })
    await server.call('DELETE', `/api/files/${first.id}`, { token: alice.token })
    expect((await up()).status).toBe(201)
  })

  test('max storage: refused with the usage in the message, before the body when Content-Length tells', async () => {
    const server = await startTestApp()
    const bob = await server.user('bob')
    await setQuota(server.ctx, { name: 'bob', maxBytes: 3 * 1024 * 1024 })
    const two = pdfOfSize(2 * 1024 * 1024)
    expect((await server.call('POST', '/api/files/upload', { token: bob.token, body: form({ bytes: two }) })).status).toBe(201)
    const refused = await server.call('POST', '/api/files/upload', { token: bob.token, body: form({ bytes: two }) })
    expect(refused.status).toBe(403)
    expect(await json(refused)).toEqual({ success: false, error: 'Storage quota exceeded: 2 MB of 3 MB used', code: 'quota_exceeded' })

    let pulls = 0
    const body = new ReadableStream({
      pull: (c) => {
        pulls++
        c.enqueue(new Uint8Array(65536))
      },
    })
    // In process: how much of the body the server read is seen only there (through a network the client sends on).
    const early = await server.callInProcess('POST', '/api/files/upload', {
      token: bob.token,
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(20 * 1024 * 1024) },
    })
    expect(early.status).toBe(403)
    expect(pulls).toBeLessThanOrEqual(1)
  })

  test('concurrent uploads cannot together pass the storage limit', async () => {
    const server = await startTestApp({ PDFSHARE_MAX_UPLOADS_PER_USER: '16' })
    const carol = await server.user('carol')
    await setQuota(server.ctx, { name: 'carol', maxBytes: 1024 * 1024 })
    const piece = pdfOfSize(300 * 1024)
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => server.call('POST', '/api/files/upload', { token: carol.token, body: form({ bytes: piece }) })),
    )
    const statuses = responses.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    expect(statuses.filter((s) => s === 403)).toHaveLength(5)
    const me = await json(await server.call('GET', '/api/me', { token: carol.token }))
    expect(me.data.usage.bytes).toBe(3 * 300 * 1024)
    expect(me.data.limits.maxStorageBytes).toBe(1024 * 1024)
    expect((await Array.fromAsync(server.ctx.blobs.keys())).length).toBe(3)
  })

  test('concurrent replacements of two files cannot together pass the storage limit', async () => {
    const server = await startTestApp({ PDFSHARE_MAX_UPLOADS_PER_USER: '16' })
    const erin = await server.user('erin')
    const files = [await uploadPdf(server, erin, pdfOfSize(100 * 1024)), await uploadPdf(server, erin, pdfOfSize(100 * 1024))]
    // 200 KiB used; each replacement keeps the replaced PDF as a version, so grows usage by 400 KiB: one fits, not both.
    await setQuota(server.ctx, { name: 'erin', maxBytes: 700 * 1024 })
    const responses = await Promise.all(
      files.map((file) => server.call('PUT', `/api/files/${file.id}`, { token: erin.token, body: form({ bytes: pdfOfSize(400 * 1024) }) })),
    )
    expect(responses.map((r) => r.status).sort()).toEqual([200, 403])
    const me = await json(await server.call('GET', '/api/me', { token: erin.token }))
    expect(me.data.usage.bytes).toBe(600 * 1024)
    expect((await Array.fromAsync(server.ctx.blobs.keys())).length).toBe(3)
  })

  test('keeping no versions, a replacement counts only its growth, and a replacement that shrinks is always allowed', async () => {
    const server = await startTestApp({ PDFSHARE_MAX_VERSIONS: '0' })
    const dave = await server.user('dave')
    const big = pdfOfSize(600 * 1024)
    const file = await uploadPdf(server, dave, big)
    await setQuota(server.ctx, { name: 'dave', maxBytes: 1024 * 1024, maxFiles: 1 })
    const bigger = await server.call('PUT', `/api/files/${file.id}`, { token: dave.token, body: form({ bytes: pdfOfSize(1000 * 1024) }) })
    expect(bigger.status).toBe(200) // 1000 KiB replaces 600 KiB: within 1 MiB, and a replacement adds no file
    const tooBig = await server.call('PUT', `/api/files/${file.id}`, { token: dave.token, body: form({ bytes: pdfOfSize(1025 * 1024) }) })
    expect(tooBig.status).toBe(403)
    expect((await json(await server.call('GET', `/api/files/${file.id}`, { token: dave.token }))).data.fileSize).toBe(1000 * 1024)
    await setQuota(server.ctx, { name: 'dave', maxBytes: 100 * 1024 })
    const smaller = await server.call('PUT', `/api/files/${file.id}`, { token: dave.token, body: form({ bytes: makePdf() }) })
    expect(smaller.status).toBe(200)
  })
})

describe('rate limit', () => {
  test('over the per-user limit → 429 with Retry-After; other users are unaffected', async () => {
    const server = await startTestApp({ PDFSHARE_RATE_LIMIT_API: '5' })
    const erin = await server.user('erin')
    const frank = await server.user('frank')
    // A pinned clock 15 s into a minute, so the window cannot roll over mid-test.
    const app = createApp({ ...server.ctx, now: () => Date.UTC(2026, 10, 22, 12, 0, 15) })
    const call = (token: string) => app.handle(new Request(`${BASE}/api/files`, { headers: bearer(token) }))
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await call(erin.token)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    const limited = await call(erin.token)
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBe(45)
    expect(await json(limited)).toEqual({ success: false, error: `Too many requests; retry in ${retryAfter} s`, code: 'rate_limited' })
    expect(limited.headers.get('ratelimit-limit')).toBe('5')
    expect(limited.headers.get('ratelimit-remaining')).toBe('0')
    const fresh = await call(frank.token)
    expect([fresh.headers.get('ratelimit-limit'), fresh.headers.get('ratelimit-remaining'), fresh.headers.get('ratelimit-reset')]).toEqual([
      '5',
      '4',
      '45',
    ])
    expect(fresh.status).toBe(200)
  })

  test("one user's tokens share one budget: minting more tokens buys no more requests", async () => {
    const server = await startTestApp({ PDFSHARE_RATE_LIMIT_API: '5' })
    const gail = await server.user('gail')
    const more = await issueToken(server.ctx, { userName: 'gail', label: 'second', ttlSeconds: 3600 })
    const app = createApp({ ...server.ctx, now: () => Date.UTC(2026, 10, 22, 12, 0, 15) })
    const call = (token: string) => app.handle(new Request(`${BASE}/api/files`, { headers: bearer(token) }))
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await call(gail.token)).status)
    for (let i = 0; i < 3; i++) statuses.push((await call(more.jwt)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})

describe('bounded uploads', () => {
  test('per user: one more than the limit at once → 429 with Retry-After; others are unaffected', async () => {
    const server = await startTestApp({ PDFSHARE_MAX_UPLOADS_PER_USER: '2', PDFSHARE_MAX_UPLOADS: '10' })
    const gina = await server.user('gina')
    const hank = await server.user('hank')
    // Two uploads that hold their slots until we let their bodies finish. The server reads a body only once its
    // upload holds a slot: a held upload's first read of more than its first bytes says its slot is taken (a fixed
    // wait was once too short on a busy machine, and a third upload sent before a held one arrived took its slot).
    const held = [0, 1].map(() => {
      let finish: () => void = () => {}
      let reading: () => void = () => {}
      const read = new Promise<void>((resolve) => (reading = resolve))
      const { body: bytes } = rawMultipart([{ name: 'file', filename: 'a.pdf', type: 'application/pdf', body: makePdf() }])
      let pulls = 0
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(bytes.slice(0, 100))
        },
        async pull(controller) {
          if (pulls++ > 0) return
          reading()
          await new Promise<void>((resolve) => (finish = resolve))
          controller.enqueue(bytes.slice(100))
          controller.close()
        },
      })
      const response = server.call('POST', '/api/files/upload', {
        token: gina.token,
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=pdfshareTestBoundary' },
      })
      return { response, read, finish: () => finish() }
    })
    await Promise.all(held.map((upload) => upload.read))
    const third = await server.call('POST', '/api/files/upload', { token: gina.token, body: form({ bytes: makePdf() }) })
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('5')
    expect((await json(third)).error).toContain('at most 2 at once')
    expect((await server.call('POST', '/api/files/upload', { token: hank.token, body: form({ bytes: makePdf() }) })).status).toBe(201)
    for (const upload of held) upload.finish()
    expect((await Promise.all(held.map((h) => h.response))).map((r) => r.status)).toEqual([201, 201])
    expect((await server.call('POST', '/api/files/upload', { token: gina.token, body: form({ bytes: makePdf() }) })).status).toBe(201)
  })

  test('in total: over the server-wide limit → 503 server_busy', async () => {
    const { createUploadGate } = await import('../../src/core/uploads/upload-gate')
    const gate = createUploadGate({ total: 1, perUser: 5 })
    let release: () => void = () => {}
    const first = gate.run('a', () => new Promise<void>((resolve) => (release = resolve)))
    // The gate throws a domain error; its HTTP status is decided where it meets HTTP, so ask the edge for it.
    const { httpFailure } = await import('../../src/http/failure')
    const answered = (work: Promise<unknown>) =>
      work.catch((error) => Promise.reject({ status: httpFailure(error).status, code: error.code }))
    await expect(answered(gate.run('b', async () => 1))).rejects.toMatchObject({ status: 503, code: 'server_busy' })
    release()
    await first
    expect(await gate.run('b', async () => 2)).toBe(2)
  })

  test('not enough free disk → 507 before the body is read, nothing stored', async () => {
    const server = await startTestApp({ PDFSHARE_MIN_FREE_DISK: '1000TB' })
    const ivy = await server.user('ivy')
    const response = await server.call('POST', '/api/files/upload', { token: ivy.token, body: form({ bytes: makePdf() }) })
    expect(response.status).toBe(507)
    const body = await json(response)
    expect(body.code).toBe('insufficient_storage')
    expect(body.error).toContain('Not enough disk space')
    expect((await json(await server.call('GET', '/api/files', { token: ivy.token }))).data).toEqual([])
  })
})

describe('slow uploads', () => {
  const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)
  /**
   * An upload body handed out one chunk per read, the test's clock moving on by `stepMs` before every chunk
   * after the first: the server sees exactly the pace the test describes, without waiting for it.
   */
  function pacedUpload(clock: { now: number }, options: { size: number; chunkBytes: number; stepMs: number }) {
    const { body, contentType } = rawMultipart([
      { name: 'file', filename: 'slow.pdf', type: 'application/pdf', body: pdfOfSize(options.size) },
    ])
    let offset = 0
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (offset >= body.length) return controller.close()
          if (offset > 0) clock.now += options.stepMs
          const end = offset === 0 ? 400 : offset + options.chunkBytes
          controller.enqueue(body.slice(offset, end))
          offset = end
        },
      },
      { highWaterMark: 0 },
    )
    return { stream, contentType, sent: () => Math.min(offset, body.length) }
  }

  async function slowServer(env: Record<string, string>) {
    const server = await startTestApp({ PDFSHARE_MAX_UPLOADS_PER_USER: '1', ...env })
    const user = await server.user()
    const clock = { now: T0 }
    const app = createApp({ ...server.ctx, now: () => clock.now })
    const upload = (body: BodyInit, contentType: string) =>
      app.handle(
        new Request(`${BASE}/api/files/upload`, { method: 'POST', body, headers: { ...bearer(user.token), 'content-type': contentType } }),
      )
    return { server, clock, upload, tmp: () => readdirSync(join(server.dataDir, 'tmp')) }
  }

  test('below PDFSHARE_UPLOAD_MIN_RATE after the grace period → 408, the temp file removed, the slot free again', async () => {
    const { clock, upload, tmp } = await slowServer({ PDFSHARE_UPLOAD_MIN_RATE: '1KB' })
    // 100 bytes every 5 s: 20 B/s, against a minimum of 1 KiB/s.
    const slow = pacedUpload(clock, { size: 1_000_000, chunkBytes: 100, stepMs: 5000 })
    const response = await upload(slow.stream, slow.contentType)
    expect(response.status).toBe(408)
    const body = await json(response)
    expect(body.code).toBe('request_timeout')
    expect(body.error).toContain('1 KB/s')
    expect(slow.sent()).toBeLessThan(10_000) // stopped soon after the grace period, not read to the end
    expect(tmp()).toEqual([])
    // The user's only upload slot is free again.
    const normal = rawMultipart([{ name: 'file', filename: 'a.pdf', type: 'application/pdf', body: makePdf() }])
    expect((await upload(normal.body, normal.contentType)).status).toBe(201)
  })

  test('longer than PDFSHARE_UPLOAD_TIMEOUT → 408 even at a good rate', async () => {
    const { clock, upload, tmp } = await slowServer({ PDFSHARE_UPLOAD_MIN_RATE: '1KB', PDFSHARE_UPLOAD_TIMEOUT: '60' })
    // 10 KiB a second, ten times the minimum rate, but 1 MB takes 100 s.
    const steady = pacedUpload(clock, { size: 1_000_000, chunkBytes: 10 * 1024, stepMs: 1000 })
    const response = await upload(steady.stream, steady.contentType)
    expect(response.status).toBe(408)
    const body = await json(response)
    expect(body.code).toBe('request_timeout')
    expect(body.error).toContain('60 s')
    expect(clock.now - T0).toBeLessThanOrEqual(62_000)
    expect(tmp()).toEqual([])
  })

  test('a slow but steady upload above the minimum rate and within the time limit succeeds', async () => {
    const { clock, upload, tmp } = await slowServer({ PDFSHARE_UPLOAD_MIN_RATE: '1KB', PDFSHARE_UPLOAD_TIMEOUT: '600' })
    // 2 KiB a second for about 50 s, with a 15-second stall in the middle.
    let chunks = 0
    const steady = pacedUpload(clock, { size: 100_000, chunkBytes: 2048, stepMs: 1000 })
    const reader = steady.stream.getReader()
    const stalled = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (++chunks === 25) clock.now += 15_000
          const { done, value } = await reader.read()
          if (done) controller.close()
          else controller.enqueue(value)
        },
      },
      { highWaterMark: 0 },
    )
    const response = await upload(stalled, steady.contentType)
    expect(response.status).toBe(201)
    expect(clock.now - T0).toBeGreaterThan(60_000)
    expect(tmp()).toEqual([])
  })
})
