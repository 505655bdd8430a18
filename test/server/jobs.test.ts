import { afterAll, describe, expect, test } from 'bun:test'
import type { Job, PassContext } from '../../src/core/jobs/jobs'
import { createJobs } from '../../src/core/jobs/registry'
import { startServer } from '../../scripts/support/process'
import { existsSync } from 'node:fs'
import { DRAWN_AHEAD } from '../../src/core/previews/draw-ahead'
import { makePdf } from '../../scripts/support/pdf'
import { eventually } from '../support/eventually'
import { STARVED_MS } from '../support/preview-cards'
import { uploadPdf } from '../support/uploads'
import { json, memoryLogger, startTestApp } from '../support/harness'

// The one runner of background work (core/jobs, docs/operations.md, Jobs beside the server): every loop beside the
// server is a registered job whose passes one pump runs (at start, on its poll, when woken, when tracked work ends),
// with a back-off after a failed pass and one place where they all stop. Counted in passes, not in wall-clock time.

const HOUR = 60 * 60 * 1000
const runner = () => {
  const log = memoryLogger()
  return { log, jobs: createJobs({ log, now: Date.now }) }
}
/** A job whose passes are recorded, and that waits for `gate` when one is set. */
function recorded(name: string, overrides: Partial<Job> = {}) {
  const passes: PassContext[] = []
  let gate: Promise<void> | undefined
  const job: Job = {
    name,
    everyMs: HOUR,
    async pass(run) {
      passes.push(run)
      await gate
    },
    ...overrides,
  }
  return { job, passes, hold: (until: Promise<void>) => (gate = until) }
}

describe('a job', () => {
  test('runs its first pass at start; nudges while a pass runs fold into one more pass', async () => {
    const { jobs } = runner()
    const { job, passes, hold } = recorded('folding')
    let release!: () => void
    hold(new Promise((resolve) => (release = resolve)))
    const handle = jobs.start(job)
    expect(passes.length).toBe(1)
    expect(passes[0]!.nudged).toBe(true)
    for (let i = 0; i < 5; i++) handle.nudge()
    hold(Promise.resolve())
    release()
    await handle.idle()
    expect(passes.length).toBe(2) // five nudges during the first pass: one pass more
    await jobs.stopAll()
  })

  test('a wake-up runs the jobs that wait for its topic, and no other', async () => {
    const { jobs } = runner()
    const outbox = recorded('outbox reader', { wakeOn: ['outbox'] })
    const pruner = recorded('pruner')
    const handles = [jobs.start(outbox.job), jobs.start(pruner.job)]
    await Promise.all(handles.map((handle) => handle.idle()))
    jobs.wake('outbox')
    jobs.wake('outbox')
    await Promise.all(handles.map((handle) => handle.idle()))
    expect(outbox.passes.length).toBeGreaterThanOrEqual(2)
    expect(pruner.passes.length).toBe(1)
    await jobs.stopAll()
    jobs.wake('outbox') // a stopped job hears nothing
    expect(outbox.passes.length).toBeLessThanOrEqual(3)
    expect(jobs.list()).toEqual([])
  })

  test('work it tracks is waited for by idle and stop, and its end fills the slot with another pass (not a nudged one)', async () => {
    const { jobs } = runner()
    let finish!: () => void
    const delivery = new Promise<void>((resolve) => (finish = resolve))
    let aborted: AbortSignal | undefined
    const passes: boolean[] = []
    const handle = jobs.start({
      name: 'sender',
      everyMs: HOUR,
      async pass(run) {
        passes.push(run.nudged)
        if (passes.length === 1) {
          aborted = run.signal
          run.track(delivery)
        }
      },
    })
    await Bun.sleep(0)
    expect(handle.status()).toMatchObject({ inFlight: 1, state: 'running' })
    let idle = false
    const waiting = handle.idle().then(() => (idle = true))
    await Bun.sleep(10)
    expect(idle).toBe(false)
    finish()
    await waiting
    expect(passes).toEqual([true, false]) // the freed slot's pass
    expect(aborted!.aborted).toBe(false)
    await handle.stop()
    expect(aborted!.aborted).toBe(true)
    expect(handle.status().state).toBe('stopped')
  })

  test('a failed pass is logged and counted, and the next waits its back-off: nudges meanwhile run nothing', async () => {
    const { jobs, log } = runner()
    let failures = 1
    const passes: number[] = []
    const handle = jobs.start({
      name: 'flaky',
      everyMs: 200,
      async pass() {
        passes.push(passes.length)
        if (failures-- > 0) throw new Error('the database is locked')
      },
    })
    await handle.idle()
    expect(handle.status()).toMatchObject({ state: 'backing off', passes: 1, failedPasses: 1 })
    expect(handle.status().failingSince).not.toBeNull()
    expect(log.lines).toEqual(['job flaky: its pass failed; trying again in 1 s'])
    for (let i = 0; i < 10; i++) handle.nudge()
    await handle.idle()
    expect(passes.length).toBe(1) // backing off
    await eventually(() => expect(passes.length).toBeGreaterThanOrEqual(2)) // after its poll's worth
    expect(handle.status()).toMatchObject({ failedPasses: 1, failingSince: null })
    await jobs.stopAll()
  })
})

describe('the jobs of a server', () => {
  const started: { stop: () => Promise<number> }[] = []
  afterAll(() => Promise.all(started.map((server) => server.stop())))

  test('pdfshare serve runs every loop as a registered job, and /api/health names each', async () => {
    // Every loop on, the search index too (the test helpers turn it off by default).
    const server = await startServer([], { env: { PDFSHARE_SEARCH_INDEX: 'true' } })
    started.push(server)
    const health = await json(await fetch(`${server.url}/api/health`))
    expect(Object.keys(health.data.jobs).sort()).toEqual(
      [
        'draw ahead',
        'notifications',
        'prune audit log',
        'prune idempotency keys',
        'prune outbox',
        'prune visits',
        'search index',
        'sweep view marks',
        'webhooks',
      ].sort(),
    )
  })

  test(
    "page 1 drawn ahead is the runner's job: an upload's page 1 is drawn in its passes, which /metrics and /api/health count",
    async () => {
      const server = await startTestApp({ PDFSHARE_DRAW_AHEAD: 'true' })
      const owner = await server.user('ahead')
      const uploaded = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'ahead.pdf' })
      const blobKey = (await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, uploaded.id) }))!.blobKey
      const drawn = () => DRAWN_AHEAD.every((width) => existsSync(server.ctx.previews.pagePathOf(blobKey, 1, width, 'webp')))
      await eventually(() => expect(drawn()).toBe(true), STARVED_MS)
      const status = server.ctx.jobs.list().find((job) => job.name === 'draw ahead')!
      expect(status.passes).toBeGreaterThan(0)
      expect(status.inFlight).toBe(0)
    },
    STARVED_MS,
  )

  test('a failing job makes /api/health degraded and names it', async () => {
    const server = await startTestApp()
    const handle = server.ctx.jobs.start({
      name: 'always failing',
      everyMs: HOUR,
      async pass() {
        throw new Error('planted')
      },
      failed: () => {},
    })
    await handle.idle()
    const health = await json(await server.callInProcess('GET', '/api/health'))
    expect(health.data).toMatchObject({ status: 'degraded', store: 'ok', jobs: { 'always failing': 'failing' } })
    await handle.stop()
    expect((await json(await server.callInProcess('GET', '/api/health'))).data).toMatchObject({ status: 'ok', jobs: {} })
  })
})
