import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { createSingleFlight } from '../../lib/concurrency'
import type { AppContext } from '../context'
import type { FileRow } from '../../db/tables'
import { withLocalPdf } from './local-pdf'
import { drawingPathOf, keepFirstDrawing, SHARED_FIRST_PAGE_WIDTHS } from './preview-cache'
import type { PageWidth } from './render-page'
import { RenderFailed, type RendererPool } from './renderer-pool'

/**
 * One page as an image: drawn (`rendered`, a WebP on disk), or why not — the page cannot be drawn (`failed`,
 * remembered for that version of the PDF), the PDF has no such page (`no_page`), the renderers are all busy
 * (`busy`, worth asking again), or the reader has used up the draws they may ask for (`over_budget`).
 */
export type PageImage =
  | { kind: 'rendered'; path: string }
  | { kind: 'failed' }
  | { kind: 'no_page'; pages: number | undefined }
  | { kind: 'busy' }
  | { kind: 'over_budget' }

/** What a page image is made of: the file's blob, and its id for the log line of a failure. */
type PagedFile = Pick<FileRow, 'id' | 'blobKey'>

export type PageImages = (
  row: PagedFile,
  page: number,
  width: PageWidth,
  /** Asked before a page is drawn (a cached one costs nothing): false refuses the draw. */
  mayDraw: () => Promise<boolean>,
) => Promise<PageImage>

/** One page's text and links as JSON (page-text.ts), with the same outcomes as an image: read (`rendered`) or why not. */
export type PageTexts = (row: PagedFile, page: number, mayDraw: () => Promise<boolean>) => Promise<PageImage>

/** The PDF's outline as JSON (pdf-outline.ts), read and kept as a page's text is. */
export type Outlines = (row: PagedFile, mayDraw: () => Promise<boolean>) => Promise<PageImage>

/**
 * Page images, drawn on demand by the preview renderers (killable processes, their time and memory caps) and
 * cached beside the link cards by blob key, page and width: a replacement is a new blob, so its pages are drawn
 * anew, and the old ones go with the old blob. Concurrent requests for one image share one draw; a page that
 * cannot be drawn is remembered (a `.failed` mark with the reason), so it is never tried again. Pages' texts
 * (for find, selection and screen readers over the images) and links, and its outline, are read and kept the same way.
 */
export function pageImages(
  ctx: AppContext,
  pool: RendererPool,
  pagesOf: (row: PagedFile) => Promise<number | undefined>,
): { imageOf: PageImages; textOf: PageTexts; outlineOf: Outlines } {
  const once = createSingleFlight<PageImage>()
  const cached = async (
    row: PagedFile,
    page: number,
    target: { path: string; mark: string; what: string },
    mayDraw: () => Promise<boolean>,
    draw: (pdfPath: string, outPath: string) => Promise<unknown>,
  ): Promise<PageImage> => {
    const pages = await pagesOf(row)
    if (pages === undefined) return { kind: 'failed' } // PDFium cannot open it at all
    if (page > pages) return { kind: 'no_page', pages }
    const { path, mark } = target
    if (existsSync(path)) {
      ctx.previews.pageUsed(path)
      return { kind: 'rendered', path }
    }
    if (existsSync(mark)) return { kind: 'failed' }
    return once(path, async () => {
      if (!(await mayDraw())) return { kind: 'over_budget' }
      const drawing = drawingPathOf(path)
      return withLocalPdf(ctx, row.blobKey, async (pdfPath): Promise<PageImage> => {
        try {
          await draw(pdfPath, drawing)
          if (keepFirstDrawing(drawing, path)) ctx.previews.pageWritten(path)
          return { kind: 'rendered', path }
        } catch (error) {
          await Promise.all([drawing, `${drawing}.tmp`].map((file) => rm(file, { force: true }))).catch(() => {})
          if (!(error instanceof RenderFailed)) return { kind: 'busy' }
          ctx.log.info(`${target.what} of file ${row.id}: ${error.message}; answered as not drawable for this version of the PDF`)
          await writeFile(mark, `${error.message}\n`).catch(() => {})
          ctx.previews.pageWritten(mark)
          return { kind: 'failed' }
        }
      })
    })
  }
  return {
    imageOf: async (row, page, width, mayDraw) => {
      const path = ctx.previews.pagePathOf(row.blobKey, page, width, 'webp')
      const mark = ctx.previews.pagePathOf(row.blobKey, page, width, 'failed')
      // Page 1 drawn ahead by another instance is in the bucket: fetched, not drawn again.
      if (page === 1 && !existsSync(path) && (SHARED_FIRST_PAGE_WIDTHS as readonly number[]).includes(width))
        await ctx.previews.pullFirstPage(row.blobKey, width).catch(() => false)
      return cached(row, page, { path, mark, what: `page ${page} at ${width} px` }, mayDraw, (pdfPath, outPath) =>
        pool.renderPage(pdfPath, [outPath], { page, widths: [width] }),
      )
    },
    textOf: (row, page, mayDraw) => {
      const path = ctx.previews.textPathOf(row.blobKey, page, 'json')
      const mark = ctx.previews.textPathOf(row.blobKey, page, 'failed')
      return cached(row, page, { path, mark, what: `the text of page ${page}` }, mayDraw, (pdfPath, outPath) =>
        pool.readText(pdfPath, outPath, { page }),
      )
    },
    outlineOf: (row, mayDraw) => {
      const path = ctx.previews.outlinePathOf(row.blobKey, 'json')
      const mark = ctx.previews.outlinePathOf(row.blobKey, 'failed')
      // Asked as of page 1: a document without pages has no outline to show (no_page).
      return cached(row, 1, { path, mark, what: 'the outline' }, mayDraw, (pdfPath, outPath) => pool.readOutline(pdfPath, outPath))
    },
  }
}
