import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bearer } from '../support/bearer'
import { form } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { run, startServer } from '../../scripts/support/process'

// One upload slot per user and a 1-second deadline: a client sending a byte a second (never silent long enough
// for the idle timeout) must lose its slot and its temp file soon after the deadline.
const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-slow-upload-'))
await run(['user', 'add', 'alice', '--data', dataDir])
const alice = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
const server = await startServer(['--data', dataDir], {
  env: { PDFSHARE_UPLOAD_TIMEOUT: '1', PDFSHARE_MAX_UPLOADS_PER_USER: '1', PDFSHARE_RATE_LIMIT_API: '0' },
})
const port = Number(new URL(server.url).port)
afterAll(async () => {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

test('an upload trickling at 1 B/s is answered 408 after PDFSHARE_UPLOAD_TIMEOUT: slot freed, temp file removed', async () => {
  let answer = ''
  const socket = connect(port, '127.0.0.1')
  socket.on('data', (data) => (answer += data.toString('latin1')))
  socket.on('error', () => {})
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(
    `POST /api/files/upload HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${alice}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000000\r\n\r\n` +
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n',
  )
  const trickle = setInterval(() => socket.writable && socket.write('x'), 1000)
  try {
    // Waits for the answer (never for a fixed time); the test's own timeout fails it if none comes.
    while (!answer.includes('\r\n\r\n')) await Bun.sleep(100)
    expect(answer).toStartWith('HTTP/1.1 408')
    expect(answer).toContain('"code":"request_timeout"')
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([])
    // Alice's one upload slot is free again.
    const response = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: bearer(alice),
      body: form({ bytes: makePdf() }),
    })
    expect(response.status).toBe(201)
  } finally {
    clearInterval(trickle)
    socket.destroy()
  }
}, 30_000)
