import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../scripts/support/podman'
import { run, startServer } from '../../scripts/support/process'

// `pdfshare health`: the container's HEALTHCHECK (the image has no curl), answered by the binary itself.
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-health-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('exit 0 when the server on that port answers /api/health, 1 when nothing answers', async () => {
  const server = await startServer([], { cwd: dir })
  try {
    const port = new URL(server.url).port
    const ok = await run(['health', '--port', port], { cwd: dir })
    expect(ok.code).toBe(0)
    expect(ok.stdout).toStartWith('ok (pdfshare ')
    // Through the environment as the image sets it, and on all addresses (0.0.0.0 is asked on loopback).
    expect((await run(['health'], { cwd: dir, env: { PDFSHARE_PORT: port, PDFSHARE_HOST: '0.0.0.0' } })).code).toBe(0)
  } finally {
    expect(await server.stop()).toBe(0)
  }
  const down = await run(['health', '--port', String(freePort())], { cwd: dir })
  expect(down.code).toBe(1)
  expect(down.stderr).toContain('no answer from http://127.0.0.1:')
  expect((await run(['health', 'now'], { cwd: dir })).code).toBe(2)
})
