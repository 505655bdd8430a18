import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventually } from '../support/eventually'
import { createRendererPool, RenderFailed, RendererUnavailable, type RendererLimits } from '../../src/core/previews/renderer-pool'

// The pool's promises, proven with a renderer that misbehaves on purpose (test/support/fake-renderer.ts:
// an output named hang-…, hog-… or crash-… makes it do that; any other name renders).
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-pool-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const fakeRenderer = join(import.meta.dir, '..', 'support', 'fake-renderer.ts')
const poolOf = (limits: Partial<RendererLimits> = {}) =>
  createRendererPool({
    timeoutMs: 1000,
    memoryBytes: 256 * 1024 * 1024,
    concurrency: 2,
    maxQueued: 4,
    idleMs: 60_000,
    command: ['bun', fakeRenderer],
    ...limits,
  })
let outputs = 0
const out = (kind = 'ok') => join(dir, `${kind}-${++outputs}.png`)
/** Renders and returns the pid of the renderer process that did it. */
const renderedBy = async (pool: ReturnType<typeof poolOf>) => {
  const path = out()
  await pool.render('/dev/null', path)
  return Number(readFileSync(path, 'utf8').replace('rendered by ', ''))
}
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error) => error,
  )
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
/** This process's children, read from /proc. */
const children = () =>
  new Set(readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number))

describe('preview renderer processes', () => {
  test('renderers run at the nice value they are given, 10 unless told: below the server, whose answers come first', async () => {
    const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16])
    const byDefault = poolOf({ nice: undefined })
    const even = poolOf({ nice: 0 })
    try {
      expect(niceOf(await renderedBy(byDefault))).toBe(10)
      expect(niceOf(await renderedBy(even))).toBe(0)
    } finally {
      byDefault.close()
      even.close()
    }
  })

  test('a render runs in a child process, which is kept for the next render', async () => {
    const pool = poolOf()
    try {
      const first = await renderedBy(pool)
      expect(first).not.toBe(process.pid)
      expect(children().has(first)).toBe(true)
      expect(await renderedBy(pool)).toBe(first)
    } finally {
      pool.close()
    }
  })

  test('past the CPU time limit the renderer is killed and the render fails with the reason; a fresh renderer serves the next', async () => {
    // The limit counts the renderer's CPU time, so however busy the machine, the spinning render fails as too slow.
    const pool = poolOf({ timeoutMs: 500, concurrency: 1, wallMs: 600_000 })
    try {
      const before = await renderedBy(pool)
      const failure = await failureOf(pool.render('/dev/null', out('hang')))
      expect(failure).toBeInstanceOf(RenderFailed)
      expect(failure?.message).toBe('needed more than 0.5 s of CPU time')
      expect(alive(before)).toBe(false) // the spinning process is gone (reaped before the render failed), not merely abandoned
      const after = await renderedBy(pool)
      expect(after).not.toBe(before)
    } finally {
      pool.close()
    }
  })

  test('a render that ran out of wall-clock time without getting the CPU is not blamed on the PDF', async () => {
    const pool = poolOf({ timeoutMs: 500, wallMs: 500 })
    try {
      const failure = await failureOf(pool.render('/dev/null', out('sleep')))
      expect(failure).toBeInstanceOf(RendererUnavailable)
      expect(failure?.message).toBe('took longer than 0.5 s while the machine was busy (0.0 s on the CPU)')
    } finally {
      pool.close()
    }
  })

  test('past the memory cap the renderer is killed and the render fails', async () => {
    const pool = poolOf({ memoryBytes: 128 * 1024 * 1024, timeoutMs: 30_000 })
    try {
      const failure = await failureOf(pool.render('/dev/null', out('hog')))
      expect(failure).toBeInstanceOf(RenderFailed)
      expect(failure?.message).toBe('needed more than 128 MB of memory')
      expect(await renderedBy(pool)).toBeGreaterThan(0)
    } finally {
      pool.close()
    }
  })

  test('a renderer that dies mid-render fails that render only; the next render starts a new one', async () => {
    const pool = poolOf({ concurrency: 1 })
    try {
      const before = await renderedBy(pool)
      const failure = await failureOf(pool.render('/dev/null', out('crash')))
      expect(failure).toBeInstanceOf(RenderFailed)
      expect(failure?.message).toBe('the renderer stopped (exit code 7)')
      expect(await renderedBy(pool)).not.toBe(before)
    } finally {
      pool.close()
    }
  })

  test('a renderer that cannot start is our trouble, not the PDF’s: RendererUnavailable with what it said', async () => {
    const pool = poolOf({ command: ['bun', fakeRenderer, 'no-start'] })
    try {
      const failure = await failureOf(pool.render('/dev/null', out()))
      expect(failure).toBeInstanceOf(RendererUnavailable)
      expect(failure?.message).toBe('the preview renderer could not start (exit code 3: cannot load the renderer: libvips is missing)')
    } finally {
      pool.close()
    }
  })

  test('at most `concurrency` renders run and `maxQueued` wait; the rest are refused at once', async () => {
    const pool = poolOf({ timeoutMs: 800, concurrency: 1, maxQueued: 1, wallMs: 600_000 })
    try {
      const results = await Promise.all([0, 1, 2].map(() => failureOf(pool.render('/dev/null', out('hang')))))
      // The two that ran hit the CPU time limit (however busy the machine: wallMs is far); the third was refused
      // at once, never run.
      expect(results.map((r) => r instanceof RenderFailed)).toEqual([true, true, false])
      expect(results[2]).toBeInstanceOf(RendererUnavailable)
      expect(results[2]?.message).not.toContain('busy')
    } finally {
      pool.close()
    }
  })

  test('an idle renderer is stopped after idleMs; close() stops every renderer', async () => {
    const idling = poolOf({ idleMs: 100 })
    const idle = await renderedBy(idling)
    // The idle timer is 100 ms; how soon the kill is seen depends on the machine, so wait for it to be.
    await eventually(() => expect(alive(idle)).toBe(false))
    idling.close()

    const pool = poolOf()
    const pid = await renderedBy(pool)
    expect(alive(pid)).toBe(true)
    pool.close()
    await eventually(() => expect(alive(pid)).toBe(false))
  })

  test('a render in flight when the pool closes (the server stopping) ends at once as RendererUnavailable, never as the PDF’s failure', async () => {
    // A sleeping renderer: without the close it would run into its 60 s limit and be a RenderFailed.
    // A renderer that has started and is idle takes the job at once.
    const pool = poolOf({ timeoutMs: 60_000, concurrency: 1 })
    await renderedBy(pool)
    const rendering = failureOf(pool.render('/dev/null', out('sleep')))
    await Bun.sleep(200) // the job is with the renderer, which sleeps on it
    pool.close()
    const failure = await rendering
    expect(failure).toBeInstanceOf(RendererUnavailable)
    expect(failure).not.toBeInstanceOf(RenderFailed)
    expect(failure?.message).toBe('the server is stopping')
  })
})
