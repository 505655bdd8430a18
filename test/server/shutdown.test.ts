import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run, startServer } from '../../scripts/support/process'
import { eventually } from '../support/eventually'

const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-shutdown-bound-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
await run(['user', 'add', 'alice', '--data', dataDir])
const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()

/** An upload that sends its headers and a little of its body, then nothing: it holds a request in flight. */
function stalledUpload(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/files/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
          'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n' +
          '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n',
      )
      resolve(socket)
    })
    socket.on('error', () => {})
  })
}

/** Until the stalled upload is in the server's hands: its temp file is there (a fixed wait was a guess). */
const inFlight = () => eventually(() => expect(readdirSync(join(dataDir, 'tmp'))).toHaveLength(1))

test('SIGTERM waits for in-flight requests only up to the shutdown timeout, then closes them', async () => {
  const server = await startServer(['--data', dataDir], { env: { PDFSHARE_SHUTDOWN_TIMEOUT: '1', PDFSHARE_IDLE_TIMEOUT: '60' } })
  const socket = await stalledUpload(Number(new URL(server.url).port))
  await inFlight()
  const started = performance.now()
  expect(await server.stop()).toBe(0)
  const elapsed = performance.now() - started
  expect(elapsed).toBeGreaterThan(900)
  // Closed by the 1 s shutdown timeout, not by the 60 s idle timeout that would end the stalled upload otherwise.
  expect(elapsed).toBeLessThan(30_000)
  expect(server.stderr()).toContain('closing the connections that are still open')
  socket.destroy()
  // The interrupted upload left nothing behind (or the next start sweeps it).
  const again = await startServer(['--data', dataDir], { env: { PDFSHARE_SHUTDOWN_TIMEOUT: '60' } })
  const stopping = performance.now()
  await again.stop()
  expect(performance.now() - stopping).toBeLessThan(30_000) // nothing in flight: does not wait out its 60 s
  expect(readdirSync(join(dataDir, 'tmp'))).toEqual([])
})

test('a second signal exits at once', async () => {
  const server = await startServer(['--data', dataDir], { env: { PDFSHARE_SHUTDOWN_TIMEOUT: '60', PDFSHARE_IDLE_TIMEOUT: '60' } })
  const socket = await stalledUpload(Number(new URL(server.url).port))
  await inFlight()
  const started = performance.now()
  server.proc.kill('SIGTERM')
  await Bun.sleep(200)
  server.proc.kill('SIGTERM')
  const code = await server.proc.exited
  expect(performance.now() - started).toBeLessThan(30_000) // not the 60 s the first signal would wait
  expect(code).toBe(143)
  socket.destroy()
})
