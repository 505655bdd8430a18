import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { ensureTestBase, freePort, podman, RUN_LIMITS, TEST_BASE } from '../../scripts/support/podman'
import { ROOT } from '../../scripts/support/process'
import { bearer } from '../support/bearer'
import { skipWithout } from '../support/host-tools'
import { uploadPdfTo } from '../support/uploads'

// The image from the top-level Containerfile, built from dist/pdfshare (`bun run build`) with Debian's podman on
// a base made from Debian's packages (no image can be pulled here), and run for real: health, the CLI through
// `exec`, an upload through the published port, PUID/PGID, a clean stop, and the data on its volume afterwards.
const skip = skipWithout(['/usr/bin/podman', '/usr/sbin/runc', '/usr/bin/mmdebstrap'], 'apt-get install -y podman runc mmdebstrap')

const tag = `pdfshare-test-${process.pid}`
const image = `localhost/${tag}:latest`
const volume = `${tag}-data`
const containers: string[] = []
const log = (line: string) => console.log(`  [container] ${line}`)
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2)

beforeAll(async () => {
  if (skip) return
  expect(existsSync(join(ROOT, 'dist', 'pdfshare'))).toBe(true)
  let started = performance.now()
  await ensureTestBase(log)
  log(`base image ready in ${seconds(started)} s`)
  started = performance.now()
  // --format docker: the OCI format has no HEALTHCHECK, and podman would drop it.
  await podman(['build', '--format', 'docker', '--build-arg', `BASE=${TEST_BASE}`, '-t', image, '-f', join(ROOT, 'Containerfile'), ROOT])
  const size = Number((await podman(['image', 'inspect', image, '--format', '{{.Size}}'])).out.trim())
  log(`image built in ${seconds(started)} s, ${(size / 1e6).toFixed(0)} MB`)
}, 300_000)

afterAll(async () => {
  if (skip) return
  for (const name of containers) await podman(['rm', '--force', '--time', '0', name], { allowFailure: true })
  await podman(['volume', 'rm', '--force', volume], { allowFailure: true })
  await podman(['rmi', '--force', image], { allowFailure: true })
})

/** `podman run -d` of the image on the test's volume; resolves once /api/health answers through the published port. */
async function runContainer(env: Record<string, string>): Promise<{ name: string; url: string; startSeconds: string }> {
  const name = `${tag}-${containers.length}`
  const port = freePort()
  const url = `http://127.0.0.1:${port}`
  containers.push(name)
  const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`])
  const started = performance.now()
  await podman(['run', '-d', '--name', name, '-p', `127.0.0.1:${port}:3000`, '-v', `${volume}:/data`, ...RUN_LIMITS, ...envArgs, image])
  for (;;) {
    const ok = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) break
    const state = (await podman(['inspect', name, '--format', '{{.State.Status}}'])).out.trim()
    if (state !== 'running' || performance.now() - started > 30_000) {
      throw new Error(`the container did not become healthy (${state}):\n${(await podman(['logs', name], { allowFailure: true })).err}`)
    }
    await Bun.sleep(25)
  }
  return { name, url, startSeconds: seconds(started) }
}

const exec = (name: string, command: string[]) => podman(['exec', name, ...command])
const ownerOf = async (name: string, path: string) => (await exec(name, ['stat', '-c', '%u:%g %a', path])).out.trim()

test.skipIf(skip)(
  'the image runs pdfshare as PUID/PGID, takes the CLI through exec and an upload, stops cleanly, and keeps the data on its volume',
  async () => {
    const first = await runContainer({ PUID: '1234', PGID: '2345' })
    log(`podman run → /api/health answered in ${first.startSeconds} s`)

    // The server runs as PUID:PGID (not root), without the root's groups; the data dir is that user's alone.
    const status = (await exec(first.name, ['cat', '/proc/1/status'])).out
    expect(/^Uid:\s+(\d+)/m.exec(status)?.[1]).toBe('1234')
    expect(/^Gid:\s+(\d+)/m.exec(status)?.[1]).toBe('2345')
    expect(/^Groups:[ \t]*(.*)$/m.exec(status)?.[1]).toBe('')
    expect((await exec(first.name, ['cat', '/proc/1/cmdline'])).out.split('\0')[0]).toBe('/usr/local/lib/pdfshare/pdfshare')
    expect(await ownerOf(first.name, '/data')).toBe('1234:2345 700')

    // `docker exec <container> pdfshare …` finds the data dir and writes as the same user.
    expect((await exec(first.name, ['pdfshare', 'user', 'add', 'alice'])).out).toContain('created user alice')
    const token = (await exec(first.name, ['pdfshare', 'token', 'issue', 'alice'])).out.trim()
    expect(token.split('.')).toHaveLength(3)
    expect(await ownerOf(first.name, '/data/pdfshare.db')).toBe('1234:2345 600')
    expect((await exec(first.name, ['pdfshare', 'health'])).out).toStartWith('ok')
    expect((await podman(['healthcheck', 'run', first.name], { allowFailure: true })).code).toBe(0)

    const pdf = makePdf({ pages: 2 })
    const file = await uploadPdfTo(first.url, token, pdf, { title: 'In a container' })
    const keys = (await exec(first.name, ['find', '/data/blobs', '-type', 'f', '-name', '*.pdf'])).out.trim().split('\n')
    expect(keys).toHaveLength(1)
    expect(await ownerOf(first.name, keys[0]!)).toBe('1234:2345 600')

    // A stop is a SIGTERM to the binary itself (process 1): it finishes and exits 0 long before podman's 10 s.
    let started = performance.now()
    await podman(['stop', '--time', '10', first.name])
    const stopSeconds = seconds(started)
    log(`podman stop took ${stopSeconds} s`)
    expect(Number(stopSeconds)).toBeLessThan(10)
    expect((await podman(['inspect', first.name, '--format', '{{.State.ExitCode}}'])).out.trim()).toBe('0')
    expect((await podman(['logs', first.name])).err).toContain('SIGTERM: no new connections')

    // The same container again, then a new one on the same volume with another PUID/PGID (a NAS user who changed
    // them): the data dir is handed over, and the file and token are still there.
    started = performance.now()
    await podman(['start', first.name])
    const port = (await podman(['port', first.name, '3000'])).out.trim().split(':').pop()
    const again = `http://127.0.0.1:${port}`
    for (
      let i = 0;
      !(await fetch(`${again}/api/health`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 1000) throw new Error('the restarted container did not answer')
      await Bun.sleep(25)
    }
    log(`podman start → /api/health answered in ${seconds(started)} s`)
    expect((await fetch(`${again}/api/files/${file.id}`, { headers: bearer(token) })).status).toBe(200)
    await podman(['stop', '--time', '10', first.name])

    const second = await runContainer({ PUID: '1500', PGID: '1500' })
    expect(await ownerOf(second.name, '/data')).toBe('1500:1500 700')
    expect(await ownerOf(second.name, keys[0]!)).toBe('1500:1500 600')
    const content = await fetch(`${second.url}/api/files/${file.id}/content`, { headers: bearer(token) })
    expect(content.status).toBe(200)
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(pdf)
    await podman(['stop', '--time', '10', second.name])
    expect((await podman(['inspect', second.name, '--format', '{{.State.ExitCode}}'])).out.trim()).toBe('0')
  },
  180_000,
)
