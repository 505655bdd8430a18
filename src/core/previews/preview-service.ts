import { rm } from 'node:fs/promises'
import type { AppContext } from '../context'
import placeholderPath from './placeholder.png' with { type: 'file' }
import { type Outlines, type PageImages, pageImages, type PageTexts } from './page-images'
import { firstPageSize, type PageSize } from './page-sizes'
import { withLocalPdf } from './local-pdf'
import { type PreviewedFile, previewState } from './preview-state'
import { startDrawingAhead } from './draw-ahead'
import { type Watermarks, watermarks } from './watermarks'
import { createRendererPool, RenderFailed, type RendererPool } from './renderer-pool'
import { rendererCommand } from './renderer-protocol'

/** How many previews render at once, each in its own process. */
export const MAX_CONCURRENT_RENDERS = 2
/** Preview requests that may wait for a renderer; beyond that the placeholder is answered at once. */
const MAX_QUEUED_RENDERS = 32
/** A renderer left without work for this long is stopped. */
const RENDERER_IDLE_MS = 60_000
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

export type { PreviewedFile }

export type PreviewService = {
  /** The file's card; with `waitMs`, the placeholder (pending) if it is not ready by then. */
  previewOf(row: PreviewedFile, options?: { waitMs?: number }): Promise<Preview>
  /** The number of pages of the file's PDF (kept in `pdf_pages` once counted); undefined when PDFium cannot tell. */
  pagesOf(row: PreviewedFile): Promise<number | undefined>
  /** One page of the file's PDF as an image at one of the ladder's widths (page-images.ts). */
  pageImageOf: PageImages
  /** One page's text, with the boxes of its words (page-text.ts), read and kept like the images. */
  pageTextOf: PageTexts
  /** The PDF's outline (pdf-outline.ts), read and kept like a page's text. */
  outlineOf: Outlines
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
  /**
   * Every page's plain text of a PDF, read by the background renderer (one at a time, beside page 1 drawn ahead
   * and the slow PDFs' second tries, with their time limit): what core/search indexes. RenderFailed when PDFium
   * cannot read it; RendererUnavailable when no renderer could (worth trying again later).
   */
  textsOf(blobKey: string): Promise<string[]>
  /** Reads the new PDF's pages and draws page 1 at the widths readers ask for most, in the background (drawAhead). */
  drawAhead(row: PreviewedFile): void
  close(): Promise<void>
}

/**
 * Previews are cached in the data dir by blob key, so a replacement (which writes a new blob) gets a new
 * preview, and the old one goes with the old blob. Concurrent requests for one blob share one render.
 * Renders run in killable renderer processes (renderer-pool.ts). Any failure of a render — too slow, too
 * large, PDFium's error, an empty bitmap — is remembered for that PDF version (a `.failed` file beside the
 * previews, holding the reason): it is logged once, and every later request gets the placeholder at once. A
 * render that only ran out of time is tried once more first, in the background, with more time (the mark
 * says `slow: ` until then). Only our own trouble (no renderer could start, too many renders waiting) is not
 * remembered. Every render also counts the PDF's pages, which are kept in the database. What is kept between
 * requests has one owner, the state (preview-state.ts); this is the order things happen in.
 */
export function createPreviewService(
  ctx: AppContext,
  pool: RendererPool = defaultPool(ctx),
  secondTries: RendererPool = defaultPool(ctx, { secondTry: true }),
): PreviewService {
  const state = previewState<Preview>(ctx)
  const { rows } = state
  const placeholder = PLACEHOLDER_PREVIEW

  /** Renders the card with `renderers`; the failure, if any, for the caller to judge. */
  const renderWith = async (renderers: RendererPool, row: PreviewedFile, timeoutMs?: number) => {
    const path = ctx.previews.pathOf(row.blobKey)
    const counted = await withLocalPdf(ctx, row.blobKey, (pdfPath) => renderers.render(pdfPath, path, { timeoutMs }))
    await rows.record(row.blobKey, counted)
    await state.rendered(row)
    return { kind: 'rendered' as const, path }
  }

  /** The second try of a slow PDF, once per process and blob, in the background. */
  const secondTry = (row: PreviewedFile) => {
    if (!state.firstTime('second try', row.blobKey)) return
    const timeoutMs = secondTryTimeout(ctx)
    void renderWith(secondTries, row, timeoutMs)
      .then(async () => {
        await state.recovered(row.blobKey)
        ctx.log.info(`preview of file ${row.id}: rendered on its second try (up to ${timeoutMs / 1000} s of CPU time)`)
      })
      .catch(async (error: unknown) => {
        await rm(`${ctx.previews.pathOf(row.blobKey)}.tmp`, { force: true }).catch(() => {})
        const reason = error instanceof Error ? error.message : String(error)
        if (!(error instanceof RenderFailed)) {
          state.again('second try', row.blobKey) // our trouble, not the PDF's: another request may try again
          return
        }
        ctx.log.info(`preview of file ${row.id}: ${reason} on its second try too; serving the placeholder for this version of the PDF`)
        await state.failed(row, `${reason} (second try)`)
      })
  }

  const render = async (row: PreviewedFile): Promise<Preview> => {
    const known = await state.cardOf(row.blobKey)
    if (known?.kind === 'failed') {
      if (known.reason.startsWith(SLOW)) secondTry(row)
      return placeholder
    }
    if (known) return known
    try {
      return await renderWith(pool, row)
    } catch (error) {
      await rm(`${ctx.previews.pathOf(row.blobKey)}.tmp`, { force: true }).catch(() => {})
      const reason = error instanceof Error ? error.message : String(error)
      if (error instanceof RenderFailed) {
        ctx.log.info(`preview of file ${row.id}: ${reason}; serving the placeholder for this version of the PDF`)
        await state.failed(row, error.slow ? `${SLOW}${reason}` : reason)
        if (error.slow) secondTry(row)
      } else if (state.unavailableLogDue()) {
        ctx.log.error(`preview of file ${row.id}: ${reason}; serving the placeholder for now`)
      }
      return placeholder
    }
  }

  /** The PDF's page count and sizes, counted by a renderer now, and kept. */
  const count = async (row: PreviewedFile) => {
    const counted = await withLocalPdf(ctx, row.blobKey, (pdfPath) => pool.countPages(pdfPath))
    await rows.record(row.blobKey, counted)
    return counted
  }

  const pagesOf = async (row: PreviewedFile) => {
    const known = rows.known(row.blobKey)
    if (known) return known.pages ?? undefined
    return state.counting(row.blobKey, async () => {
      const stored = await rows.read(row.blobKey, 'pages')
      if (stored) return stored.pages ?? undefined
      try {
        return (await count(row)).pages
      } catch (error) {
        // PDFium cannot open it: nobody can tell its pages (remembered); our trouble: ask again next time.
        if (error instanceof RenderFailed) rows.unreadable(row.blobKey)
        return undefined
      }
    })
  }

  const drawingAhead = startDrawingAhead(ctx, secondTries, state)
  const drawAhead = drawingAhead.ask

  const sizesOf = async (row: PreviewedFile): Promise<string | 'unreadable' | 'password' | 'busy'> => {
    const known = rows.known(row.blobKey)?.sizes
    if (known !== undefined) return known
    return state.sizing(row.blobKey, async () => {
      const stored = (await rows.read(row.blobKey, 'sizes'))?.sizes
      if (stored !== undefined) return stored
      try {
        return (await count(row)).sizes ?? 'unreadable'
      } catch (error) {
        if (!(error instanceof RenderFailed)) return 'busy'
        return /password/i.test(error.message) ? 'password' : 'unreadable'
      }
    })
  }

  const firstPageOf = async (row: PreviewedFile) => {
    const size = firstPageSize((await rows.read(row.blobKey, 'sizes'))?.sizes)
    if (size) return size
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
    textsOf: (blobKey) => withLocalPdf(ctx, blobKey, (pdfPath) => secondTries.readTexts(pdfPath)),
    pageImageOf: pages.imageOf,
    pageTextOf: pages.textOf,
    outlineOf: pages.outlineOf,
    watermarks: watermarks(ctx, pool),
    async previewOf(row, options = {}) {
      const rendering = state.rendering(row.blobKey, () => render(row))
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
    close: async () => {
      pool.close()
      secondTries.close() // what is drawn ahead ends at once, and the job's stop has nothing left to wait for
      await drawingAhead.stop()
    },
  }
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
