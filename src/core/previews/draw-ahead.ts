import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import type { AppContext } from '../context'
import type { JobHandle } from '../jobs/jobs'
import { withLocalPdf } from './local-pdf'
import { firstPageSize } from './page-sizes'
import type { PreviewedFile, PreviewState } from './preview-state'
import { drawingPathOf, keepFirstDrawing, SHARED_FIRST_PAGE_WIDTHS } from './preview-cache'
import { RenderFailed, type RendererPool } from './renderer-pool'

/**
 * The widths page 1 is drawn at ahead of its first reader: what share pages ask for on phones (800, 1200),
 * laptops and desktops (1200, 1800) and high-density screens (2400); see the viewer's page image sizes.
 */
export const DRAWN_AHEAD = SHARED_FIRST_PAGE_WIDTHS

/**
 * PDFs drawn ahead at once. The background renderer draws one at a time; a second waits at its queue, so the
 * renderer never idles between two, and the rest wait here, where they cost nothing (the pool's own queue is
 * short and refuses past it).
 */
const AT_ONCE = 2

/** Asks for page 1 of a PDF to be drawn; the job does it when a renderer is free. */
export type DrawAhead = { ask(row: PreviewedFile): void; stop(): Promise<void> }

/**
 * Page 1 drawn ahead of its first reader, as a job of the one runner (core/jobs, named `draw ahead` in /metrics
 * and /api/health): an upload, a replacement or a page of a PDF whose sizes are not known yet asks for it; a pass
 * starts the PDFs asked for while fewer than AT_ONCE are being drawn, and the pump runs the next pass as one
 * ends. For each: page 1 at the widths readers ask for most, drawn once (at the largest) by the background
 * renderer, and every page's size read on the way; once per blob and process, skipped where they are already on
 * disk. Our trouble (renderers busy, stopping) lets a later ask try again; a PDF PDFium cannot draw is left to the
 * readers' requests, which remember it.
 */
export function startDrawingAhead(
  ctx: AppContext,
  renderers: RendererPool,
  state: Pick<PreviewState<unknown>, 'rows' | 'firstTime' | 'again'>,
): DrawAhead {
  const { rows } = state
  const asked = new Map<string, PreviewedFile>() // by blob key, in the order asked

  const draw = async (row: PreviewedFile) => {
    const widths = DRAWN_AHEAD.filter((width) => !existsSync(ctx.previews.pagePathOf(row.blobKey, 1, width, 'webp')))
    const paths = widths.map((width) => ctx.previews.pagePathOf(row.blobKey, 1, width, 'webp'))
    // Drawn beside, then kept where a reader's request has not drawn that width meanwhile (keepFirstDrawing).
    const drawings = paths.map(drawingPathOf)
    try {
      const known = firstPageSize((await rows.read(row.blobKey, 'sizes'))?.sizes)
      if (widths.length === 0 && known) return
      const counted = await withLocalPdf(ctx, row.blobKey, (pdfPath) =>
        widths.length > 0
          ? renderers.renderPage(pdfPath, drawings, { page: 1, widths: [...widths], sizes: !known })
          : renderers.countPages(pdfPath),
      )
      for (const [index, path] of paths.entries()) if (keepFirstDrawing(drawings[index]!, path)) ctx.previews.pageWritten(path)
      // Into the bucket before the sizes are recorded: an instance names page 1 in its HTML once it knows them,
      // and by then the image is there for it. Served from this disk either way; a bucket that refuses them only
      // costs the other instances a draw.
      for (const width of widths)
        await ctx.previews
          .pushFirstPage(row.blobKey, width)
          .catch((error) => ctx.log.error(`page 1 of file ${row.id} at ${width} px: not kept in the bucket: ${error}`))
      await rows.record(row.blobKey, counted)
    } catch (error) {
      for (const drawing of drawings) await Promise.all([drawing, `${drawing}.tmp`].map((file) => rm(file, { force: true })))
      if (error instanceof RenderFailed) ctx.log.info(`page 1 of file ${row.id} was not drawn ahead: ${error.message}`)
      else state.again('draw ahead', row.blobKey) // our trouble, not the PDF's: a later ask may try again
    }
  }

  const job: JobHandle = ctx.jobs.start({
    name: 'draw ahead',
    // Nothing to look for on a poll: every PDF to draw is asked for, and the ask nudges the job.
    everyMs: 10 * 60_000,
    async pass(run) {
      let free = AT_ONCE - run.inFlight
      for (const [blobKey, row] of asked) {
        if (free-- <= 0) break
        asked.delete(blobKey)
        run.track(draw(row))
      }
    },
  })

  return {
    ask(row) {
      if (!state.firstTime('draw ahead', row.blobKey)) return
      asked.set(row.blobKey, row)
      job.nudge()
    },
    stop: async () => {
      asked.clear()
      await job.stop()
    },
  }
}
