import { existsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import type { FileRow } from '../../db/tables'
import { createSingleFlight } from '../../lib/concurrency'
import type { AppContext } from '../context'
import placeholderPath from './placeholder.png' with { type: 'file' }
import { SHARED_FIRST_PAGE_WIDTHS } from './preview-cache'
import { type PageImages, pageImages, type PageTexts } from './page-images'
import { firstPageSize, type PageSize } from './page-sizes'
import { type Watermarks, watermarks } from './watermarks'
import { type Counted, createRendererPool, RenderFailed, type RendererPool } from './renderer-pool'
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
  /** One page's text, with the boxes of its words (page-text.ts), read and kept like the images. */
  pageTextOf: PageTexts
  /** A reader's watermark over a page image, or on every page of a download (watermarks.ts). */
  watermarks: Watermarks
  /**
   * The size of page 1 of the file's PDF, once PDFium has read it; until then undefined, and it is read (and
   * page 1 drawn) in the background, so a later page can name page 1's image.
   */
  firstPageOf(row: PreviewedFile): Promise<PageSize | undefined>
  /**
   * Every page's size (page-sizes.ts, encoded), read now if need be (under the renderers' caps): what a link that
   * does not send its PDF lays its pages out with. `unreadable` when PDFium cannot open the PDF, `password` when
   * it needs a password to open it, `busy` when no renderer could read them now (worth asking again).
   */
  sizesOf(row: PreviewedFile): Promise<string | 'unreadable' | 'password' | 'busy'>
  /** Reads the new PDF's pages and draws page 1 at the widths readers ask for most, in the background (drawAhead). */
  drawAhead(row: PreviewedFile): void
  close(): void
}

const RECORD_PAGES = `INSERT INTO pdf_pages (blob_key, pages, sizes) VALUES (?, ?, ?)
ON CONFLICT (blob_key) DO UPDATE SET sizes = excluded.sizes WHERE pdf_pages.sizes IS NULL AND excluded.sizes IS NOT NULL`
const PAGES = 'SELECT pages, sizes FROM pdf_pages WHERE blob_key = ?'

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
  // Page 1's size by blob key, once read (a blob never changes).
  const firstPages = new Map<string, PageSize>()
  const secondTried = new Set<string>()
  const drawingAhead = new Set<string>()
  let unavailableLoggedAt = -Infinity
  // The card is served from this disk either way; a bucket that refuses it only costs the others a render.
  const sharing = (row: PreviewedFile, kind: 'png' | 'failed') =>
    ctx.previews.push(row.blobKey, kind).catch((error) => ctx.log.error(`preview of file ${row.id}: not kept in the bucket: ${error}`))
  const recordPages = async (blobKey: string, { pages, sizes }: Counted) => {
    remember(pageCounts, blobKey, pages)
    const first = firstPageSize(sizes)
    if (first) remember(firstPages, blobKey, first)
    await ctx.db.hot.runGroups([[{ sql: RECORD_PAGES, args: [blobKey, pages, sizes ?? null] }]]).catch((error) => {
      ctx.log.error(`the page count of blob ${blobKey} could not be kept`, error)
    })
  }

  /** Renders the card with `renderers`; the failure, if any, for the caller to judge. */
  const renderWith = async (renderers: RendererPool, row: PreviewedFile, timeoutMs?: number) => {
    const path = ctx.previews.pathOf(row.blobKey)
    const pdf = await ctx.blobs.localFile(row.blobKey)
    try {
      await recordPages(row.blobKey, await renderers.render(pdf.path, path, { timeoutMs }))
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
        ctx.log.info(`preview of file ${row.id}: rendered on its second try (up to ${timeoutMs / 1000} s of CPU time)`)
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
        const counted = await pool.countPages(pdf.path)
        await recordPages(row.blobKey, counted)
        return counted.pages
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

  /**
   * Page 1 at the widths readers ask for most, drawn once (at the largest) by the background renderer, and every
   * page's size read on the way: once per blob and process, skipped where they are already on disk. Our trouble
   * (renderers busy, stopping) lets a later call try again; a PDF PDFium cannot draw is left to the readers'
   * requests, which remember it.
   */
  const drawAhead = (row: PreviewedFile) => {
    if (drawingAhead.has(row.blobKey)) return
    drawingAhead.add(row.blobKey)
    void (async () => {
      const widths = DRAWN_AHEAD.filter((width) => !existsSync(ctx.previews.pagePathOf(row.blobKey, 1, width, 'webp')))
      const known = firstPages.get(row.blobKey) ?? firstPageSize((await ctx.db.hot.get(PAGES, [row.blobKey]))?.[1] as string | null)
      if (known) remember(firstPages, row.blobKey, known)
      if (widths.length === 0 && known) return
      const pdf = await ctx.blobs.localFile(row.blobKey)
      try {
        const outPaths = widths.map((width) => ctx.previews.pagePathOf(row.blobKey, 1, width, 'webp'))
        const counted =
          widths.length > 0
            ? await secondTries.renderPage(pdf.path, outPaths, { page: 1, widths: [...widths], sizes: !known })
            : await secondTries.countPages(pdf.path)
        for (const path of outPaths) ctx.previews.pageWritten(path)
        // Into the bucket before the sizes are recorded: an instance names page 1 in its HTML once it knows them,
        // and by then the image is there for it. Served from this disk either way; a bucket that refuses them only
        // costs the other instances a draw.
        for (const width of widths)
          await ctx.previews
            .pushFirstPage(row.blobKey, width)
            .catch((error) => ctx.log.error(`page 1 of file ${row.id} at ${width} px: not kept in the bucket: ${error}`))
        await recordPages(row.blobKey, counted)
      } finally {
        await pdf.release()
      }
    })().catch(async (error: unknown) => {
      for (const width of DRAWN_AHEAD) await rm(`${ctx.previews.pagePathOf(row.blobKey, 1, width, 'webp')}.tmp`, { force: true })
      if (error instanceof RenderFailed) ctx.log.info(`page 1 of file ${row.id} was not drawn ahead: ${error.message}`)
      else drawingAhead.delete(row.blobKey) // our trouble, not the PDF's: a later view may try again
    })
  }

  const allSizes = new Map<string, string>()
  const sizing = createSingleFlight<string | 'unreadable' | 'password' | 'busy'>()
  const sizesOf = async (row: PreviewedFile): Promise<string | 'unreadable' | 'password' | 'busy'> => {
    const known = allSizes.get(row.blobKey)
    if (known !== undefined) return known
    return sizing(row.blobKey, async () => {
      const stored = await ctx.db.hot.get(PAGES, [row.blobKey])
      // A PDF of no pages has sizes '' (and 0 pages): known, not missing.
      let sizes = stored && (stored[1] !== null || Number(stored[0]) === 0) ? String(stored[1] ?? '') : undefined
      if (sizes === undefined) {
        try {
          const pdf = await ctx.blobs.localFile(row.blobKey)
          try {
            const counted = await pool.countPages(pdf.path)
            await recordPages(row.blobKey, counted)
            sizes = counted.sizes
          } finally {
            await pdf.release()
          }
        } catch (error) {
          if (!(error instanceof RenderFailed)) return 'busy'
          return /password/i.test(error.message) ? 'password' : 'unreadable'
        }
      }
      if (sizes === undefined) return 'unreadable'
      remember(allSizes, row.blobKey, sizes)
      return sizes
    })
  }

  const firstPageOf = async (row: PreviewedFile) => {
    const known = firstPages.get(row.blobKey)
    if (known) return known
    const size = firstPageSize((await ctx.db.hot.get(PAGES, [row.blobKey]))?.[1] as string | null)
    if (size) return remember(firstPages, row.blobKey, size)
    // Not read yet (a PDF from before page sizes were kept, or draw-ahead is off): read it for the next reader.
    drawAhead(row)
    return undefined
  }

  const pages = pageImages(ctx, pool, pagesOf)
  return {
    pagesOf,
    sizesOf,
    firstPageOf,
    drawAhead: (row) => {
      if (ctx.config.drawAhead) drawAhead(row)
    },
    pageImageOf: pages.imageOf,
    pageTextOf: pages.textOf,
    watermarks: watermarks(ctx, pool),
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

/**
 * The widths page 1 is drawn at ahead of its first reader: what share pages ask for on phones (800, 1200),
 * laptops and desktops (1200, 1800) and high-density screens (2400); see the viewer's page image sizes.
 */
export const DRAWN_AHEAD = SHARED_FIRST_PAGE_WIDTHS

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
    // A reader's page waits for its render: on a busy machine it may take this long before it is given up (the
    // second tries run in the background, with the pool's default).
    wallMs: options.secondTry ? undefined : previewWaitOf(ctx.config),
    memoryBytes: ctx.config.previewMemory,
    nice: ctx.config.previewNice,
    concurrency: options.secondTry ? 1 : MAX_CONCURRENT_RENDERS,
    maxQueued: options.secondTry ? 8 : MAX_QUEUED_RENDERS,
    idleMs: RENDERER_IDLE_MS,
    command: rendererCommand(),
    metrics: { to: ctx.metrics, pool: options.secondTry ? 'second_try' : 'first' },
  })
}
