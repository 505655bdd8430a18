import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { setPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { createLimiter } from '../../lib/concurrency'
import { formatSize } from '../../shared/sizes'
import type { Metrics } from '../metrics/metrics'
import type { RendererMessage, RenderJob } from './renderer-protocol'

export type RendererLimits = {
  /**
   * CPU time one render may use before its process is killed (a PDF that needs more is too costly to draw). CPU
   * time, not wall-clock time: on a busy machine a renderer gets less of the CPU per second, and a fine PDF must
   * not turn into a placeholder because the machine was busy.
   */
  timeoutMs: number
  /**
   * Wall-clock time one render may take however little CPU it got: a renderer starved by a busy machine (or stuck)
   * is stopped then, not blamed on the PDF (RendererUnavailable). Default: WALL_FACTOR times the CPU time limit;
   * never less than it.
   */
  wallMs?: number
  /** Resident memory one renderer process may reach before it is killed. */
  memoryBytes: number
  /** The nice value renderers run at (default 10: below the server's priority). */
  nice?: number
  /** Renderer processes at once; each renders one PDF at a time. */
  concurrency: number
  /** Renders that may wait for a free renderer; more are refused at once (RendererBusy). */
  maxQueued: number
  /** A renderer with nothing to do for this long is stopped, so an idle server holds no renderer memory. */
  idleMs: number
  /** The command line that starts a renderer (renderer-protocol.ts). */
  command: string[]
  /** Where renders, kills and the queue are reported, and the pool's name there. */
  metrics?: { to: Metrics; pool: string }
}

/**
 * The render of this PDF failed (timeout, memory cap, PDFium error, crash): a property of the PDF. `slow`: it
 * only ran out of time, with the CPU it needed; with more time it may well render.
 */
export class RenderFailed extends Error {
  override name = 'RenderFailed'
  constructor(
    message: string,
    readonly slow = false,
  ) {
    super(message)
  }
}

/** No renderer could be started, or all are busy with a full queue: our side, worth retrying later. */
export class RendererUnavailable extends Error {
  override name = 'RendererUnavailable'
}

/** How often a renderer's resident memory and CPU time are read while it renders. */
const MEMORY_POLL_MS = 20
/** Renderers' nice value unless told otherwise: a busy render never slows the server's answers. */
const DEFAULT_NICE = 10
/** The default wall-clock limit of a render, in multiples of its CPU time limit. */
const WALL_FACTOR = 10
/** A renderer that keeps more than this share of the cap after a render is replaced by a fresh one. */
const RECYCLE_SHARE = 0.5
/**
 * How long a renderer may take to start (Bun, PDFium's wasm compiled, sharp loaded: ~150 ms on a server), or a
 * render's wall-clock limit if that is longer: a slow or busy machine (an emulated or small ARM board, a NAS at
 * work) that gives a render more time needs it to start, too.
 */
const START_TIMEOUT_MS = 15_000

type Renderer = {
  proc: Subprocess
  ready: Promise<void>
  onMessage?: (message: RendererMessage) => void
  onExit?: (reason: string) => void
  idleTimer?: Timer
  exited: boolean
}

/** What a renderer answers of the PDF it opened: its page count and, where read, its pages' sizes (page-sizes.ts). */
export type Counted = { pages: number; sizes?: string }

export type RendererPool = {
  /**
   * Renders page 1 of the PDF at `pdfPath` into `outPath` (a PNG), in a renderer process; resolves with the PDF's
   * page count. `timeoutMs` replaces the pool's time limit for this render (a second try of a slow PDF).
   */
  render(pdfPath: string, outPath: string, options?: { timeoutMs?: number }): Promise<Counted>
  /**
   * Draws page `page` of the PDF at `pdfPath` once and writes it as a WebP per width (`outPaths[i]` `widths[i]`
   * pixels wide), under the same limits; with `sizes`, answers every page's size too.
   */
  renderPage(
    pdfPath: string,
    outPaths: string[],
    options: { page: number; widths: number[]; sizes?: boolean; timeoutMs?: number },
  ): Promise<Counted>
  /** Counts the pages of the PDF at `pdfPath` and reads their sizes in a renderer process, under the same limits. */
  countPages(pdfPath: string): Promise<Counted>
  /** Reads the text of page `page` of the PDF at `pdfPath` into `outPath` (JSON, page-text.ts), under the same limits. */
  readText(pdfPath: string, outPath: string, options: { page: number }): Promise<Counted>
  /** Reads the PDF's outline into `outPath` (JSON, pdf-outline.ts), under the same limits. */
  readOutline(pdfPath: string, outPath: string): Promise<Counted>
  /** Every page's plain text of the PDF at `pdfPath` (page-text.ts readPlainTexts), under the same limits. */
  readTexts(pdfPath: string): Promise<string[]>
  /** Writes the PDF at `pdfPath` with the watermark `text` on every page to `outPath` (draw-watermark.ts), under the same limits. */
  stamp(pdfPath: string, outPath: string, options: { text: string; timeoutMs?: number }): Promise<Counted>
  /** Draws the watermark `text` over a transparent `width` × `height` PNG at `outPath` (watermark-jobs.ts). */
  overlay(outPath: string, options: { text: string; width: number; height: number }): Promise<Counted>
  /**
   * The page image `page` (a WebP's bytes) with the overlay at `overlayPath` laid over it (lay-watermark.ts), under
   * the same limits: a WebP, handed back as bytes (it is one reader's). Both ways through the renderers' scratch
   * folder, under names used once: the renderer lays the overlay over exactly the page its size was read from,
   * never a page the cache has since written anew under the same name.
   */
  watermark(page: Uint8Array, overlayPath: string): Promise<Buffer>
  /** Stops every renderer (the server is stopping). */
  close(): void
}

/**
 * Previews render in child processes, never on the server's event loop: a hostile PDF can make PDFium loop
 * forever or grow its memory by gigabytes, and only a process can be stopped at any instant. Each render
 * runs under a CPU time limit and a memory cap (both read every 20 ms; PDFium's own heap is
 * also capped inside the renderer, so most bombs fail cleanly before the cap is reached); on overrun the
 * process is killed, and the next render starts a fresh one. Renderers run at a lower CPU priority than
 * the server, so page views and API calls keep answering while they work.
 */
export function createRendererPool(limits: RendererLimits): RendererPool {
  const limit = createLimiter(limits.concurrency, limits.maxQueued)
  const metrics = limits.metrics?.to
  limits.metrics?.to.watchRenderers(limits.metrics.pool, limit.load)
  const idle: Renderer[] = []
  const all = new Set<Renderer>()
  let nextJob = 1
  let nextOutput = 1
  let closed = false
  // The renderers' scratch folder (rendererEnv; the pages to watermark and the watermarked pages on their way),
  // made with the first renderer; removed on close, or when the process exits without closing the pool.
  let scratch: string | undefined
  const removeScratch = () => {
    if (scratch) rmSync(scratch, { recursive: true, force: true })
    scratch = undefined
  }
  const scratchFolder = () => {
    if (!scratch) {
      scratch = mkdtempSync(join(tmpdir(), 'pdfshare-renderers-'))
      process.once('exit', removeScratch)
    }
    return scratch
  }

  /** The wall-clock limit of a render with the CPU time limit `timeoutMs`. */
  const wallLimit = (timeoutMs: number) => Math.max(timeoutMs, limits.wallMs ?? timeoutMs * WALL_FACTOR)

  const stop = (renderer: Renderer) => {
    clearTimeout(renderer.idleTimer)
    if (!renderer.exited) renderer.proc.kill('SIGKILL')
  }

  const start = (): Renderer => {
    let stderr = ''
    const renderer: Renderer = { exited: false } as Renderer
    renderer.proc = Bun.spawn(limits.command, {
      env: rendererEnv(scratchFolder()),
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'pipe',
      serialization: 'json',
      ipc: (message: RendererMessage) => renderer.onMessage?.(message),
      onExit: (_proc, code, signal) => {
        renderer.exited = true
        all.delete(renderer)
        const at = idle.indexOf(renderer)
        if (at >= 0) idle.splice(at, 1)
        clearTimeout(renderer.idleTimer)
        renderer.onExit?.(signal ? `signal ${signal}` : `exit code ${code}`)
      },
    })
    renderer.proc.unref() // an idle renderer never keeps the server process alive
    all.add(renderer)
    // Keep the last lines a renderer printed, to explain a failed start; the rest (emscripten's notes) is dropped.
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of renderer.proc.stderr as ReadableStream<Uint8Array>) stderr = (stderr + decoder.decode(chunk)).slice(-600)
    })().catch(() => {})
    try {
      setPriority(renderer.proc.pid, limits.nice ?? DEFAULT_NICE)
    } catch {
      // not permitted here: the renderer runs at the server's priority
    }
    renderer.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          stop(renderer)
          reject(new RendererUnavailable('the preview renderer did not start in time'))
        },
        Math.max(START_TIMEOUT_MS, wallLimit(limits.timeoutMs)),
      )
      renderer.onMessage = (message) => {
        if (!('ready' in message)) return
        clearTimeout(timer)
        resolve()
      }
      renderer.onExit = (reason) => {
        clearTimeout(timer)
        const said = stderr.trim().split('\n').pop()
        reject(new RendererUnavailable(`the preview renderer could not start (${reason}${said ? `: ${said}` : ''})`))
      }
    })
    renderer.ready.catch(() => {}) // awaited by the render that started it
    return renderer
  }

  const release = (renderer: Renderer) => {
    renderer.onMessage = renderer.onExit = undefined
    if (closed || renderer.exited || residentBytes(renderer.proc.pid) > limits.memoryBytes * RECYCLE_SHARE) return stop(renderer)
    renderer.idleTimer = setTimeout(() => stop(renderer), limits.idleMs)
    renderer.idleTimer.unref()
    idle.push(renderer)
  }

  const renderOn = (renderer: Renderer, job: RenderJob, timeoutMs: number) =>
    new Promise<Counted>((resolve, reject) => {
      const pid = renderer.proc.pid
      const cpuAtStart = cpuMillisOf(pid)
      const cpuUsed = () => cpuMillisOf(pid) - cpuAtStart
      // Where /proc gives no CPU time (not Linux), the CPU limit is counted on the wall clock.
      const byCpu = Number.isFinite(cpuAtStart)
      const wallMs = wallLimit(timeoutMs)
      let killedFor: Error | undefined
      const kill = (failure: Error, reason: 'time' | 'memory') => {
        if (!killedFor) metrics?.rendererKilled(reason)
        killedFor ??= failure
        stop(renderer)
      }
      const tooSlow = () => new RenderFailed(`needed more than ${timeoutMs / 1000} s of CPU time`, true)
      const deadline = setTimeout(
        () => {
          if (!byCpu) return kill(tooSlow(), 'time')
          // The renderer did not get through its CPU time in all this time: the machine was busy (or the renderer
          // stuck), not the PDF's fault, and the same PDF may well render next time, so that is not remembered.
          kill(
            new RendererUnavailable(
              `took longer than ${wallMs / 1000} s while the machine was busy (${(cpuUsed() / 1000).toFixed(1)} s on the CPU)`,
            ),
            'time',
          )
        },
        byCpu ? wallMs : timeoutMs,
      )
      const watch = setInterval(() => {
        if (residentBytes(pid) > limits.memoryBytes)
          kill(new RenderFailed(`needed more than ${formatSize(limits.memoryBytes)} of memory`), 'memory')
        else if (byCpu && cpuUsed() >= timeoutMs) kill(tooSlow(), 'time')
      }, MEMORY_POLL_MS)
      const settle = () => {
        clearTimeout(deadline)
        clearInterval(watch)
      }
      renderer.onMessage = (message) => {
        if (!('id' in message) || message.id !== job.id) return
        settle()
        if (message.ok) resolve({ pages: message.pages, sizes: message.sizes })
        else reject(new RenderFailed(message.reason))
      }
      renderer.onExit = (reason) => {
        settle()
        // Stopped with the server (close): not the PDF's fault, so nothing marks it as one that cannot be drawn.
        if (closed && !killedFor) reject(new RendererUnavailable('the server is stopping'))
        else reject(killedFor ?? new RenderFailed(`the renderer stopped (${reason})`))
      }
      renderer.proc.send(job)
    })

  /** One job on a free renderer (a new one if none is idle), under the limits; the page count (and sizes) it answered. */
  const run = (job: Omit<RenderJob, 'id' | 'memoryLimit'>, timeoutMs = limits.timeoutMs) =>
    limit(async () => {
      if (closed) throw new RendererUnavailable('the server is stopping')
      const renderer = idle.pop() ?? start()
      clearTimeout(renderer.idleTimer)
      await renderer.ready
      let counted: Counted
      const started = performance.now()
      try {
        counted = await renderOn(renderer, { ...job, id: nextJob++, memoryLimit: limits.memoryBytes }, timeoutMs)
      } catch (error) {
        stop(renderer) // whatever state a failed render left behind goes with its process
        if (error instanceof RenderFailed) metrics?.rendered(job.kind, 'failed', (performance.now() - started) / 1000)
        throw error
      }
      metrics?.rendered(job.kind, 'ok', (performance.now() - started) / 1000)
      release(renderer)
      return counted
    }).catch((error: unknown) => {
      if (error instanceof RenderFailed) throw error
      metrics?.rendered(job.kind, 'unavailable')
      if (error instanceof RendererUnavailable) throw error
      throw new RendererUnavailable(error instanceof Error ? error.message : String(error))
    })

  return {
    render: (pdfPath, outPath, options = {}) => run({ kind: 'card', pdfPath, outPath }, options.timeoutMs),
    renderPage: (pdfPath, outPaths, { timeoutMs, ...options }) => run({ kind: 'page', pdfPath, outPaths, ...options }, timeoutMs),
    countPages: (pdfPath) => run({ kind: 'pages', pdfPath }),
    readText: (pdfPath, outPath, { page }) => run({ kind: 'text', pdfPath, outPath, page }),
    readOutline: (pdfPath, outPath) => run({ kind: 'outline', pdfPath, outPath }),
    stamp: (pdfPath, outPath, { text, timeoutMs }) => run({ kind: 'stamp', pdfPath, outPath, text }, timeoutMs),
    overlay: (outPath, options) => run({ kind: 'overlay', pdfPath: '', outPath, ...options }),
    async readTexts(pdfPath) {
      if (closed) throw new RendererUnavailable('the server is stopping')
      const outPath = join(scratchFolder(), `texts-${nextOutput++}.json`)
      try {
        await run({ kind: 'texts', pdfPath, outPath })
        return JSON.parse(await readFile(outPath, 'utf8')) as string[]
      } finally {
        await Promise.all([outPath, `${outPath}.tmp`].map((path) => rm(path, { force: true })))
      }
    },
    async watermark(page, overlayPath) {
      if (closed) throw new RendererUnavailable('the server is stopping')
      const job = nextOutput++
      const imagePath = join(scratchFolder(), `page-${job}.webp`)
      const outPath = join(scratchFolder(), `watermarked-${job}.webp`)
      try {
        await writeFile(imagePath, page)
        await run({ kind: 'watermark', pdfPath: '', imagePath, overlayPath, outPath })
        return await readFile(outPath)
      } finally {
        await Promise.all([imagePath, outPath, `${outPath}.tmp`].map((path) => rm(path, { force: true })))
      }
    },
    close() {
      closed = true
      for (const renderer of all) stop(renderer)
      process.off('exit', removeScratch)
      removeScratch()
    },
  }
}

/** CPU time (user + system) a process has used, in ms (Linux /proc, in ticks of 10 ms); NaN where unknown. */
function cpuMillisOf(pid: number): number {
  try {
    // Fields after the command name, which is in parentheses and may contain spaces: utime is the 12th, stime the 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

/** Resident memory of a process in bytes (Linux /proc); 0 where that cannot be read. */
function residentBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/**
 * The renderer needs no secret: it gets the environment without pdfshare's own settings, plus a private
 * folder where the binary's renderers share sharp's native libraries (scripts/native-plugins.ts). A renderer
 * killed mid-render could not remove a folder of its own; the server removes this one when it stops.
 */
function rendererEnv(scratch: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('PDFSHARE_')) env[name] = value
  }
  env.PDFSHARE_SHARP_DIR = scratch
  return env
}
