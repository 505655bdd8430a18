import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bearer } from '../support/bearer'
import { run, startServer } from '../../scripts/support/process'
import { makePdf } from '../../scripts/support/pdf'
import { form } from '../support/harness'
import { uploadPdfTo } from '../support/uploads'

// Behaviour that only shows over a real socket: clients that vanish, bodies that never come, many at once.
const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-stream-'))
await run(['user', 'add', 'alice', '--data', dataDir])
const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
const server = await startServer(['--data', dataDir], {
  env: { PDFSHARE_RATE_LIMIT_API: '0', PDFSHARE_MAX_UPLOADS: '64', PDFSHARE_MAX_UPLOADS_PER_USER: '64' },
})
const port = Number(new URL(server.url).port)
afterAll(async () => {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

const tmpFiles = () => readdirSync(join(dataDir, 'tmp'))

/** Sends raw bytes on a socket and resolves with whatever the server answered (or '' if it closed). */
function rawExchange(chunks: (string | Uint8Array)[], options: { endAfter?: boolean; waitMs?: number } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (data) => (answer += data.toString('latin1')))
    socket.on('error', () => {})
    socket.on('close', () => resolve(answer))
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk)
      if (options.endAfter) socket.end()
      setTimeout(() => socket.destroy(), options.waitMs ?? 500)
    })
  })
}

const multipartHead = (boundary: string, length: number, auth = true) =>
  `POST /api/files/upload HTTP/1.1\r\nHost: localhost\r\n${auth ? `Authorization: Bearer ${token}\r\n` : ''}` +
  `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n` +
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`

describe('uploads over a real socket', () => {
  test('a client that disconnects mid-upload leaves no temp file and no blob', async () => {
    const blobsBefore = readdirSync(join(dataDir, 'blobs'), { recursive: true }).length
    await rawExchange([multipartHead('b0', 50 * 1024 * 1024), '%PDF-1.7\n', new Uint8Array(2 * 1024 * 1024)], { waitMs: 300 })
    for (let i = 0; i < 50 && tmpFiles().length > 0; i++) await Bun.sleep(20)
    expect(tmpFiles()).toEqual([])
    expect(readdirSync(join(dataDir, 'blobs'), { recursive: true }).length).toBe(blobsBefore)
  })

  test('a declared Content-Length above the cap is answered 413 at once, with the envelope', async () => {
    const answer = await rawExchange([multipartHead('b1', 500 * 1024 * 1024)], { waitMs: 1000 })
    expect(answer).toStartWith('HTTP/1.1 413')
    expect(answer).toContain('"code":"file_too_large"')
  })

  test('an unauthenticated upload is answered 401 without reading the body', async () => {
    const answer = await rawExchange([multipartHead('b2', 100 * 1024 * 1024, false), '%PDF-1.7\n'], { waitMs: 1000 })
    expect(answer).toStartWith('HTTP/1.1 401')
    expect(answer.toLowerCase()).toContain('www-authenticate: bearer')
    expect(tmpFiles()).toEqual([])
  })

  test('a body that is not a PDF is refused after its first KiB, without waiting for the rest', async () => {
    // %PDF- may come anywhere in the first 1,024 bytes, so those are needed before the answer, and no more.
    const answer = await rawExchange([multipartHead('b3', 80 * 1024 * 1024), `<html><body>${'<p>not a pdf</p>'.repeat(64)}`], {
      waitMs: 1000,
    })
    expect(answer).toStartWith('HTTP/1.1 415')
    expect(answer).toContain('"code":"not_pdf"')
    expect(tmpFiles()).toEqual([])
  })

  test('30 concurrent uploads all commit (no SQLITE_BUSY, no lost writes)', async () => {
    const pdf = makePdf()
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${server.url}/api/files/upload`, { method: 'POST', headers: bearer(token), body: form({ bytes: pdf }, { title: `c${i}` }) }),
      ),
    )
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201))
    const list = await (await fetch(`${server.url}/api/files?limit=100`, { headers: bearer(token) })).json()
    const titles = new Set(list.data.map((f: { title: string }) => f.title))
    for (let i = 0; i < 30; i++) expect(titles.has(`c${i}`)).toBe(true)
  })

  test('Range requests on the owner download over HTTP', async () => {
    const pdf = makePdf({ pages: 4 })
    const file = await uploadPdfTo(server.url, token, pdf)
    const response = await fetch(`${server.url}/api/files/${file.id}/content`, { headers: { ...bearer(token), range: 'bytes=5-14' } })
    expect(response.status).toBe(206)
    expect(response.headers.get('content-range')).toBe(`bytes 5-14/${pdf.length}`)
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf.slice(5, 15))
    const whole = await fetch(`${server.url}/api/files/${file.id}/content`, { headers: bearer(token) })
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(pdf)
  })
})
