import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bearer } from '../support/bearer'
import { eventually } from '../support/eventually'
import { form } from '../support/harness'
import { measureRequests, percentile, slowFlood } from '../../scripts/support/slow-clients'
import { run, startServer } from '../../scripts/support/process'

const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-slow-'))
await run(['user', 'add', 'alice', '--data', dataDir])
await run(['user', 'add', 'bob', '--data', dataDir])
const alice = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
const bob = (await run(['token', 'issue', 'bob', '--data', dataDir])).stdout.trim()
const server = await startServer(['--data', dataDir], {
  env: { PDFSHARE_IDLE_TIMEOUT: '2', PDFSHARE_PREVIEW_TIMEOUT: '1', PDFSHARE_RATE_LIMIT_API: '0' },
})
const port = Number(new URL(server.url).port)
afterAll(async () => {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

test('a client that stops sending mid-upload is cut off by the idle timeout, and its temp file removed', async () => {
  const flood = await slowFlood({ port, count: 1, intervalMs: 60_000, kind: 'body', token: alice })
  // The upload's temp file appears once the server reads the file part, and goes with the cut-off 2 s after the
  // last byte: each looked for until it is so (a fixed wait was a guess at a loaded machine's speed).
  await eventually(() => expect(readdirSync(join(dataDir, 'tmp'))).toHaveLength(1))
  await eventually(() => expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]))
  flood.stop()
})

test('slow-header and slow-body floods do not stop normal requests from being served', async () => {
  const headers = await slowFlood({ port, count: 300, intervalMs: 500, kind: 'headers' })
  const bodies = await slowFlood({ port, count: 20, intervalMs: 500, kind: 'body', token: alice })
  await Bun.sleep(300)
  const latencies = await measureRequests(`${server.url}/api/files`, 300, 8, bearer(bob))
  console.log(
    `during a flood of ${headers.open()} slow-header and ${bodies.open()} slow-body connections: 300 normal requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
  )
  expect(latencies.every(Number.isFinite)).toBe(true)
  // Bob uploads normally while alice's slow uploads hold her own slots.
  const upload = form({ bytes: new TextEncoder().encode('%PDF-1.7 bob'), name: 'b.pdf' })
  expect((await fetch(`${server.url}/api/files/upload`, { method: 'POST', headers: bearer(bob), body: upload })).status).toBe(201)
  headers.stop()
  bodies.stop()
})
