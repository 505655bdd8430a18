import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { contentStreamBomb, formPatternCycle, hugeImagePage, selfDrawingForm } from '../../scripts/support/hostile-pdfs'
import { run, startServer } from '../../scripts/support/process'
import { descendantsOf } from '../../scripts/support/test-run'
import { eventually } from '../support/eventually'
import { shareUrlOn } from '../support/share-paths'
import { uploadPdfTo } from '../support/uploads'
import { SLACKBOT } from '../support/user-agents'

// The real server process, with hostile previews rendering: its own memory stays put (the renderers are
// other processes, each under the cap), and its other requests keep answering.
const MEMORY_CAP = 256 * 1024 * 1024
const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-previews-'))
await run(['user', 'add', 'alice', '--data', dataDir])
const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
const server = await startServer(['--data', dataDir], {
  env: { PDFSHARE_PREVIEW_TIMEOUT: '3', PDFSHARE_PREVIEW_MEMORY: '256MB', PDFSHARE_RATE_LIMIT_SHARE: '0' },
})
afterAll(async () => {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Resident memory of a process, and of each of its children, from /proc. */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024
const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)

test('hostile previews render in capped child processes: the server keeps its memory and answers /api/health throughout', async () => {
  const links: string[] = []
  for (const pdf of [selfDrawingForm(), formPatternCycle(), contentStreamBomb(256), hugeImagePage(), formPatternCycle()]) {
    links.push(shareUrlOn(server.url, await uploadPdfTo(server.url, token, pdf)))
  }
  const pid = server.proc.pid
  const baseline = rssOf(pid)
  let serverPeak = baseline
  let rendererPeak = 0
  let rendererCount = 0
  const healthMs: number[] = []

  let previewsDone = false
  const previews = Promise.all(links.map((link) => fetch(`${link}/preview.png`, { headers: { 'user-agent': SLACKBOT } }))).finally(
    () => (previewsDone = true),
  )
  while (!previewsDone) {
    const started = performance.now()
    const health = await fetch(`${server.url}/api/health`)
    healthMs.push(performance.now() - started)
    expect(health.status).toBe(200)
    serverPeak = Math.max(serverPeak, rssOf(pid))
    for (const child of childrenOf(pid)) {
      try {
        rendererPeak = Math.max(rendererPeak, rssOf(child))
        rendererCount++
      } catch {
        // it was killed between the listing and the read
      }
    }
    await Bun.sleep(10)
  }
  const responses = await previews
  for (const response of responses) expect(response.status).toBe(200)
  healthMs.sort((a, b) => a - b)
  const p99 = healthMs[Math.floor(healthMs.length * 0.99)]!
  console.log(
    `5 hostile previews: ${healthMs.length} health checks meanwhile, p99 ${p99.toFixed(1)} ms, max ${healthMs.at(-1)!.toFixed(1)} ms; ` +
      `server RSS ${(baseline / 2 ** 20).toFixed(0)} → peak ${(serverPeak / 2 ** 20).toFixed(0)} MiB; renderer peak ${(rendererPeak / 2 ** 20).toFixed(0)} MiB`,
  )
  expect(rendererCount).toBeGreaterThan(0) // the renders really ran in children
  // Never held up by a render: in-process, the cycle blocked it for good, and a render that ran on the event loop
  // would hold a check for its whole CPU time limit (3 s) or more. The bound leaves a busy machine its own delays.
  expect(healthMs.at(-1)!).toBeLessThan(3000)
  expect(serverPeak - baseline).toBeLessThan(128 * 1024 * 1024) // in-process, the self-drawing form alone took 2 GiB
  // A renderer is killed once it passes the cap; between two reads (20 ms) it can grow a little beyond it.
  expect(rendererPeak).toBeLessThan(MEMORY_CAP + 64 * 1024 * 1024)
}, 60_000) // five renders of up to 3 s each on two cores: more than bun's default 5 s when the machine is busy

test('a renderer in the middle of an endless render goes with its server when the server is killed (kill -9)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-previews-killed-'))
  try {
    await run(['user', 'add', 'alice', '--data', dir])
    const own = (await run(['token', 'issue', 'alice', '--data', dir])).stdout.trim()
    // A render may use a minute of CPU time: the renderer is still drawing the endless PDF when its server dies.
    // The card's is the only renderer (no page 1 drawn ahead, no text read for search).
    const doomed = await startServer(['--data', dir], {
      env: { PDFSHARE_PREVIEW_TIMEOUT: '60', PDFSHARE_IDLE_TIMEOUT: '120', PDFSHARE_DRAW_AHEAD: 'false', PDFSHARE_SEARCH_INDEX: 'false' },
    })
    const link = shareUrlOn(doomed.url, await uploadPdfTo(doomed.url, own, formPatternCycle()))
    void fetch(`${link}/preview.png`, { headers: { 'user-agent': SLACKBOT } }).catch(() => {})
    const renderer = () => descendantsOf(doomed.proc.pid).find((child) => child.command.includes('__preview-renderer'))?.pid
    await eventually(() => expect(renderer()).toBeDefined())
    const pid = renderer()!
    // Drawing, not starting: more CPU time than a renderer takes to start (well under a second).
    await eventually(() => expect(cpuSecondsOf(pid)).toBeGreaterThan(2), 150_000)
    doomed.proc.kill('SIGKILL')
    await doomed.proc.exited
    await eventually(() => expect(existsSync(`/proc/${pid}`)).toBe(false))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 180_000)

/** CPU time (user + system) of a process, in seconds, from /proc (ticks of 10 ms). */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
