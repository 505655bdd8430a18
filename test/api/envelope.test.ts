import { describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import type { BlobStore } from '../../src/storage/blob-store'
import { BASE, form, json, startTestApp } from '../support/harness'
import { bearer } from '../support/bearer'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

const server = await startTestApp()
const alice = await server.user('alice')

describe('every response', () => {
  test('carries an X-Request-Id, on success, on errors and on unknown routes', async () => {
    const responses = [
      await server.call('GET', '/api/health'),
      await server.call('GET', '/api/files', { token: alice.token }),
      await server.call('GET', '/api/files'),
      await server.call('GET', '/api/nothing-here'),
      await server.call('GET', '/api/files/nope', { token: alice.token }),
    ]
    const ids = responses.map((r) => r.headers.get('x-request-id'))
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,64}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  test("a client's own sane X-Request-Id is echoed; an unsafe one is replaced", async () => {
    expect((await server.call('GET', '/api/health', { headers: { 'x-request-id': 'trace-42' } })).headers.get('x-request-id')).toBe(
      'trace-42',
    )
    expect(
      (await server.call('GET', '/api/health', { headers: { 'x-request-id': 'bad id\twith spaces' } })).headers.get('x-request-id'),
    ).not.toContain(' ')
  })

  test('an unknown route answers the failure envelope with 404', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing'],
      ['POST', '/api/files'],
      ['PATCH', '/api/files/x'],
      ['GET', '/nowhere'],
    ]) {
      const response = await server.call(method!, path!, { token: alice.token })
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(await json(response)).toEqual({ success: false, error: 'Not found', code: 'not_found' })
    }
  })

  test('one access-log line per request, with method, path, status and user', async () => {
    const ok = await server.call('GET', '/api/files', { token: alice.token })
    const missing = await server.call('GET', '/api/files/missing', { token: alice.token })
    await Bun.sleep(20) // the line is written after the response is handed over
    const linesOf = (response: Response) => server.log.lines.filter((line) => line.includes(` ${response.headers.get('x-request-id')} `))
    expect(linesOf(ok)).toHaveLength(1)
    expect(linesOf(ok)[0]).toMatch(/ GET \/api\/files 200 [\d.]+ms user=alice$/)
    expect(linesOf(missing)).toHaveLength(1)
    expect(linesOf(missing)[0]).toMatch(/ GET \/api\/files\/missing 404 [\d.]+ms user=alice$/)
  })

  test('an unexpected failure is a bare 500: no stack, path or message of the cause reaches the client', async () => {
    const secretPath = '/srv/very/secret/path/blob.pdf'
    const brokenStore: BlobStore = {
      ...server.ctx.blobs,
      put: async () => {
        throw new Error(`EIO: i/o error, rename '${secretPath}'`)
      },
    }
    const log = {
      lines: [] as string[],
      errors: [] as unknown[],
      info() {},
      error(line: string, error: unknown) {
        this.lines.push(line)
        this.errors.push(error)
      },
    }
    const app = createApp({ ...server.ctx, blobs: brokenStore, log })
    const response = await app.handle(
      new Request(`${BASE}/api/files/upload`, { method: 'POST', headers: bearer(alice.token), body: form({ bytes: makePdf() }) }),
    )
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({ success: false, error: 'Internal server error', code: 'internal' })
    expect(text).not.toContain('secret')
    const requestId = response.headers.get('x-request-id')!
    expect(log.lines.some((line) => line.includes(requestId))).toBe(true)
    expect(String(log.errors[0])).toContain(secretPath)
  })
})

describe('security headers', () => {
  test('every kind of response carries nosniff, a referrer policy and a frame-ancestors policy', async () => {
    const file = await uploadPdf(server, alice)
    const share = sharePathOf(file)
    const paths: [string, string | undefined][] = [
      ['/api/health', undefined],
      ['/api/files', alice.token],
      ['/api/files', undefined],
      ['/api/nothing', undefined],
      [`/api/files/${file.id}/content`, alice.token],
      [share, undefined],
      [`${share}/file`, undefined],
      [`${share}/preview.png`, undefined],
      ['/s/AAAAAAAAAAAAAAAAAAAAAA', undefined],
      ['/api/openapi.json', undefined],
    ]
    for (const [path, token] of paths) {
      const response = await server.call('GET', path, { token, headers: { 'user-agent': FIREFOX } })
      expect(`${path} ${response.headers.get('x-content-type-options')}`).toBe(`${path} nosniff`)
      expect(`${path} ${response.headers.get('referrer-policy')}`).toBe(`${path} no-referrer`)
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(`${path} ${/frame-ancestors|sandbox/.test(csp)}`).toBe(`${path} true`)
    }
  })
})
