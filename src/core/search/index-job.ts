import type { BatchItem } from 'drizzle-orm/batch'
import type { AppContext } from '../context'
import type { JobHandle } from '../jobs/jobs'
import type { PreviewService } from '../previews/preview-service'
import { RenderFailed } from '../previews/renderer-pool'
import { pageDialectOf } from './dialects'
import type { IndexedPdf } from './page-dialect'
import { pendingPdfs, recordState } from './index-state'

/** How long the job leaves the index alone after our own trouble (no renderer free, the database refusing). */
const AFTER_TROUBLE_MS = 30_000
/** How often the job looks for PDFs nobody asked about (a file received through a request, a restored version, the backlog). */
const POLL_MS = 60_000

/** Asks for the newest PDFs' text to be read now; stops the job. */
export type Indexing = { nudge(): void; stop(): Promise<void> }

/**
 * The page-text index filled beside the server, as a job of the one runner (core/jobs, `search index` in
 * /metrics and /api/health): a pass takes the newest file whose current PDF has not been read (index-state.ts)
 * and has the background renderer read every page's text (one PDF at a time, under the renderers' time and memory
 * caps: the index never takes more than that one renderer), then writes its pages and its state in one batch.
 * The pump runs the next pass as one ends, so the queue drains one PDF after another; an upload or a replacement
 * nudges it, and the poll finds the rest. A PDF PDFium cannot read is marked failed with why, and the queue goes on.
 * Off (PDFSHARE_SEARCH_INDEX=false): no job, and every file stays pending.
 */
export function startIndexing(ctx: AppContext, previews: Pick<PreviewService, 'textsOf'>): Indexing {
  if (!ctx.config.searchIndex) return { nudge: () => {}, stop: async () => {} } // PDFSHARE_SEARCH_INDEX=false
  const pages = pageDialectOf(ctx.db)
  const pause = { until: 0 }

  const read = async (file: IndexedPdf) => {
    try {
      const texts = await previews.textsOf(file.blobKey)
      const [first, ...rest] = [...pages.replacePages(file, texts), recordState(ctx, file, { pages: texts.length })].map(
        (statement): BatchItem<'sqlite'> => ctx.db.orm.run(statement),
      )
      await ctx.db.orm.batch([first!, ...rest])
    } catch (error) {
      if (error instanceof RenderFailed) {
        ctx.log.info(`search index: the text of file ${file.id} cannot be read: ${error.message}`)
        await ctx.db.orm.run(recordState(ctx, file, { error: error.message }))
        return
      }
      // Ours, not the PDF's (no renderer, a busy database): the file stays pending and is tried again later.
      pause.until = ctx.now() + AFTER_TROUBLE_MS
      ctx.log.error(`search index: file ${file.id} not read now: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  const job: JobHandle = ctx.jobs.start({
    name: 'search index',
    everyMs: POLL_MS,
    async pass(run) {
      if (run.inFlight > 0 || ctx.now() < pause.until) return
      const [next] = await pendingPdfs(ctx, 1)
      if (next) run.track(read(next))
    },
  })
  return { nudge: () => job.nudge(), stop: () => job.stop() }
}
