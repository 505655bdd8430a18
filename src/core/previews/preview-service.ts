import { existsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import type { FileRow } from '../../db/tables'
import { createSingleFlight } from '../../lib/concurrency'
import type { AppContext } from '../context'
import placeholderPath from './placeholder.png' with { type: 'file' }
import { type PageImages, pageImages } from './page-images'
import { createRendererPool, RenderFailed, type RendererPool } from './renderer-pool'
import { rendererCommand } from './renderer-protocol'

/** How many previews render at once, each in its own process. */
export const MAX_CONCURRENT_RENDERS = 2
/** Preview requests that may wait for a renderer; beyond that the placeholder is answered at once. */
const MAX_QUEUED_RENDERS = 32
/** A renderer left without work for this long is stopped. */
const RENDERER_IDLE_MS = 60_000
/** A failure to start a renderer is logged at most this often. */
const UNAVAILABLE_LOG_MS = 60_000
/**
 * A PDF that ran out of time only because it is slow gets one more try, in the background, with this many times
 * the time (at least 30 s, at most 120 s), on a renderer of its own so it holds up no other preview.
 */
const SECOND_TRY_FACTOR = 6
/** The mark of a PDF whose render ran out of time and whose second try is still to come. */
const SLOW = 'slow: '

/**
 * A cached render on disk, or the neutral placeholder card (a file in the build, independent of sharp).
 * `pending`: the placeholder for now, the render goes on (a request does not wait longer than it may).
 */
export type Preview = { kind: 'rendered' | 'placeholder'; path: string; pending?: boolean }

/** The neutral card: answered when a render fails, and as the preview of a link that shows nothing of its document. */
export const PLACEHOLDER_PREVIEW: Preview = { kind: 'placeholder', path: placeholderPath }

/** What a preview is made of: the file's blob, and its id for the log line of a failure. */
export type PreviewedFile = Pick<FileRow, 'id' | 'blobKey'>

export type PreviewService = {
  /** The file's card; with `waitMs`, the placeholder (pending) if it is not ready by then. */
  previewOf(row: PreviewedFile, options?: { waitMs?: number }): Promise<Preview>
  /** The number of pages of the file's PDF (kept in `pdf_pages` once counted); undefined when PDFium cannot tell. */
  pagesOf(row: PreviewedFile): Promise<number | undefined>
  /** One page of the file's PDF as an image at one of the ladder's widths (page-images.ts). */
  pageImageOf: PageImages
  close(): void
}

const RECORD_PAGES = 'INSERT INTO pdf_pages (blob_key, pages) VALUES (?, ?) ON CONFLICT (blob_key) DO NOTHING'
const PAGES = 'SELECT pages FROM pdf_pages WHERE blob_key = ?'

/**
 * Previews are cached in the data dir by blob key, so a replacement (which writes a new blob) gets a new
 * preview, and the old one goes with the old blob. Concurrent requests for one blob share one render.
 * Renders run in killable renderer processes (renderer-pool.ts). Any failure of a render — too slow, too
 * large, PDFium's error, an empty bitmap — is remembered for that PDF version (a `.failed` file beside the
 * previews, holding the reason): it is logged once, and every later request gets the placeholder at once. A
 * render that only ran out of time is tried once more first, in the background, with more time (the mark
 * says `slow: ` until then). Only our own trouble (no renderer could start, too many renders waiting) is not
 * remembered. Every render also counts the PDF's pages, which are kept in the database.
 */
export function createPreviewService(
  ctx: AppContext,
  pool: RendererPool = defaultPool(ctx),
  secondTries: RendererPool = defaultPool(ctx, { secondTry: true }),
): PreviewService {
  const once = createSingleFlight<Preview>()
  const counting = createSingleFlight<number | undefined>()
  const placeholder = PLACEHOLDER_PREVIEW
  const pageCounts = new Map<string, number | undefined>()
  const secondTried = new Set<string>()
  let unavailableLoggedAt = -Infinity
  // The card is served from this disk either way; a bucket that refuses it only costs the others a render.
  const sharing = (row: PreviewedFile, kind: 'png' | 'failed') =>
    ctx.previews.push(row.blobKey, kind).catch((error) => ctx.log.error(`preview of file ${row.id}: not kept in the bucket: ${error}`))
  const recordPages = async (blobKey: string, pages: number) => {
    remember(pageCounts, blobKey, pages)
    await ctx.db.hot.runGroups([[{ sql: RECORD_PAGES, args: [blobKey, pages] }]]).catch((error) => {
      ctx.log.error(`the page count of blob ${blobKey} could not be kept`, error)
    })
  }

  /** Renders the card with `renderers`; the failure, if any, for the caller to judge. */
  const renderWith = async (renderers: RendererPool, row: PreviewedFile, timeoutMs?: number) => {
    const path = ctx.previews.pathOf(row.blobKey)
    const pdf = await ctx.blobs.localFile(row.blobKey)
    try {
      const { pages } = await renderers.render(pdf.path, path, { timeoutMs })
      await recordPages(row.blobKey, pages)
    } finally {
      await pdf.release()
    }
    await sharing(row, 'png')
    return { kind: 'rendered' as const, path }
  }

  const failed = async (row: PreviewedFile, reason: string) => {
    await writeFile(ctx.previews.pathOf(row.blobKey, 'failed'), `${reason}\n`).catch(() => {})
    await sharing(row, 'failed')
  }

  /** The second try of a slow PDF, once per process and blob, in the background. */
  const secondTry = (row: PreviewedFile) => {
    if (secondTried.has(row.blobKey)) return
    secondTried.add(row.blobKey)
    const timeoutMs = secondTryTimeout(ctx)
    void renderWith(secondTries, row, timeoutMs)
      .then(async () => {
        await rm(ctx.previews.pathOf(row.blobKey, 'failed'), { force: true })
        ctx.log.info(`preview of file ${row.id}: rendered on its second try (up to ${timeoutMs / 1000} s)`)
      })
      .catch(async (error: unknown) => {
        await rm(`${ctx.previews.pathOf(row.blobKey)}.tmp`, { force: true }).catch(() => {})
        const reason = error instanceof Error ? error.message : String(error)
        if (!(error instanceof RenderFailed)) {
          secondTried.delete(row.blobKey) // our trouble, not the PDF's: another request may try again
          return
        }
        ctx.log.info(`preview of file ${row.id}: ${reason} on its second try too; serving the placeholder for this version of the PDF`)
        await failed(row, `${reason} (second try)`)
      })
  }

  const render = async (row: PreviewedFile): Promise<Preview> => {
    const path = ctx.previews.pathOf(row.blobKey)
    const failedMarker = ctx.previews.pathOf(row.blobKey, 'failed')
    const cached = () => (existsSync(path) ? { kind: 'rendered' as const, path } : existsSync(failedMarker) ? placeholder : undefined)
    const known = cached() ?? ((await ctx.previews.pull(row.blobKey).catch(() => false)) ? cached() : undefined)
    if (known === placeholder) {
      if ((await readFile(failedMarker, 'utf8').catch(() => '')).startsWith(SLOW)) secondTry(row)
      return placeholder
    }
    if (known) return known
    try {
      return await renderWith(pool, row)
    } catch (error) {
      await rm(`${path}.tmp`, { force: true }).catch(() => {})
      const reason = error instanceof Error ? error.message : String(error)
      if (error instanceof RenderFailed) {
        ctx.log.info(`preview of file ${row.id}: ${reason}; serving the placeholder for this version of the PDF`)
        await failed(row, error.slow ? `${SLOW}${reason}` : reason)
        if (error.slow) secondTry(row)
      } else if (ctx.now() - unavailableLoggedAt >= UNAVAILABLE_LOG_MS) {
        unavailableLoggedAt = ctx.now()
        ctx.log.error(`preview of file ${row.id}: ${reason}; serving the placeholder for now`)
      }
      return placeholder
    }
  }

  const countPages = async (row: PreviewedFile): Promise<number | undefined> => {
    const stored = await ctx.db.hot.get(PAGES, [row.blobKey])
    if (stored) return remember(pageCounts, row.blobKey, Number(stored[0]))
    try {
      const pdf = await ctx.blobs.localFile(row.blobKey)
      try {
        const pages = await pool.countPages(pdf.path)
        await recordPages(row.blobKey, pages)
        return pages
      } finally {
        await pdf.release()
      }
    } catch (error) {
      // PDFium cannot open it: nobody can tell its pages (remembered); our trouble: ask again next time.
      if (error instanceof RenderFailed) return remember(pageCounts, row.blobKey, undefined)
      return undefined
    }
  }

  const pagesOf = async (row: PreviewedFile) => {
    if (pageCounts.has(row.blobKey)) return pageCounts.get(row.blobKey)
    return counting(row.blobKey, () => countPages(row))
  }
  return {
    pagesOf,
    pageImageOf: pageImages(ctx, pool, pagesOf),
    async previewOf(row, options = {}) {
      const rendering = once(row.blobKey, () => render(row))
      if (options.waitMs === undefined) return rendering
      let timer: Timer | undefined
      const late = new Promise<Preview>((resolve) => {
        timer = setTimeout(() => resolve({ ...placeholder, pending: true }), options.waitMs)
      })
      try {
        return await Promise.race([rendering, late])
      } finally {
        clearTimeout(timer)
      }
    },
    close: () => {
      pool.close()
      secondTries.close()
    },
  }
}

/** Page counts kept in memory: a few numbers per PDF, at most this many PDFs. */
const REMEMBERED_COUNTS = 10_000

function remember<T>(map: Map<string, T>, key: string, value: T): T {
  if (map.size >= REMEMBERED_COUNTS) map.delete(map.keys().next().value!)
  map.set(key, value)
  return value
}

/**
 * How long a preview request waits for its card before it is answered the placeholder (pending): well within
 * the time a connection may stay silent (PDFSHARE_IDLE_TIMEOUT, after which the server drops it unanswered),
 * however many renders wait before it.
 */
export function previewWaitOf(config: Pick<AppContext['config'], 'idleTimeout'>): number {
  return Math.max(500, config.idleTimeout * 1000 - Math.min(5_000, config.idleTimeout * 250))
}

/** The time limit of a slow PDF's second try. */
export function secondTryTimeout(ctx: Pick<AppContext, 'config'>): number {
  return Math.min(120, Math.max(30, ctx.config.previewTimeout * SECOND_TRY_FACTOR)) * 1000
}

function defaultPool(ctx: AppContext, options: { secondTry?: boolean } = {}): RendererPool {
  return createRendererPool({
    timeoutMs: options.secondTry ? secondTryTimeout(ctx) : ctx.config.previewTimeout * 1000,
    memoryBytes: ctx.config.previewMemory,
    concurrency: options.secondTry ? 1 : MAX_CONCURRENT_RENDERS,
    maxQueued: options.secondTry ? 8 : MAX_QUEUED_RENDERS,
    idleMs: RENDERER_IDLE_MS,
    command: rendererCommand(),
    metrics: { to: ctx.metrics, pool: options.secondTry ? 'second_try' : 'first' },
  })
}
