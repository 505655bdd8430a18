import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bearer } from '../support/bearer'
import { run, startServer } from '../../scripts/support/process'

// Malformed HTTP framing, sent byte for byte over a socket to the real server. Framing errors are answered
// by Bun's HTTP parser before pdfshare sees the request (so with Bun's plain 4xx, not our envelope); what
// matters is: a 4xx or a closed connection, never a 5xx, never a request smuggled past the parser, and the
// server healthy afterwards.
const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-raw-'))
await run(['user', 'add', 'alice', '--data', dataDir])
const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
const server = await startServer(['--data', dataDir])
const port = Number(new URL(server.url).port)
afterAll(async () => {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

function exchange(bytes: string | Uint8Array): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (data) => (answer += data.toString('latin1')))
    socket.on('error', () => {})
    socket.on('close', () => resolve(answer))
    socket.on('connect', () => socket.write(bytes))
    setTimeout(() => socket.destroy(), 700)
  })
}

const auth = `Authorization: Bearer ${token}\r\n`
const cases: [string, string][] = [
  [
    'negative Content-Length',
    `PUT /api/files/x HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`,
  ],
  [
    'non-numeric Content-Length',
    `PUT /api/files/x HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
  ],
  [
    'two different Content-Lengths',
    `PUT /api/files/x HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}`,
  ],
  [
    'Content-Length and chunked together (smuggling)',
    `POST /api/files/upload HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/me HTTP/1.1\r\nHost: a\r\n\r\n`,
  ],
  [
    'an invalid chunk size',
    `POST /api/files/upload HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nhello\r\n0\r\n\r\n`,
  ],
  [
    'a transfer encoding other than chunked',
    `POST /api/files/upload HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: gzip\r\n\r\nxx`,
  ],
  ['a header line without a colon', `GET /api/health HTTP/1.1\r\nHost: a\r\nthis is not a header\r\n\r\n`],
  ['a NUL byte in a header value', `GET /api/health HTTP/1.1\r\nHost: a\r\nX-Test: a\u0000b\r\n\r\n`],
  ['a bare LF inside a header value', `GET /api/health HTTP/1.1\r\nHost: a\r\nX-Test: a\nInjected: yes\r\n\r\n`],
  ['an HTTP/0.9 request line', `GET /api/health\r\n\r\n`],
  ['an unknown HTTP version', `GET /api/health HTTP/7.0\r\nHost: a\r\n\r\n`],
  ['a 100 KB header', `GET /api/health HTTP/1.1\r\nHost: a\r\nX-Big: ${'x'.repeat(100_000)}\r\n\r\n`],
  ['a 100 KB URL', `GET /api/files/${'a'.repeat(100_000)} HTTP/1.1\r\nHost: a\r\n${auth}\r\n`],
  ['garbage instead of a request', '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u01fc\u0003\u0003 not http at all\r\n\r\n'],
  ['a method with spaces', `GE T /api/health HTTP/1.1\r\nHost: a\r\n\r\n`],
]

describe('raw HTTP framing', () => {
  for (const [name, request] of cases) {
    test(name, async () => {
      const answer = await exchange(request)
      const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]))
      // 505 is HTTP's own answer to a protocol version the server does not speak (Bun's parser gives it);
      // every other answer must be a 4xx.
      const allowed = /version|HTTP\/0\.9/.test(name) ? [400, 505] : undefined
      for (const status of statuses) {
        if (allowed) expect(allowed).toContain(status)
        else expect(status).toBeLessThan(500)
      }
      // Nothing after the first answer may be the answer to a smuggled request.
      expect(answer).not.toContain('"name":"alice"')
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
    })
  }

  test('afterwards: healthy, no temp files, the access log never saw a smuggled /api/me', async () => {
    expect((await fetch(`${server.url}/api/me`, { headers: bearer(token) })).status).toBe(200)
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([])
  })
})
