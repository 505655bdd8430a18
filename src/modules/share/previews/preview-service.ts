import { rename, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import type { AppContext } from '../../../context'
import { previewPathOf } from '../../../data-dir'
import type { SharedFile } from '../service/find-shared-file'
import { createLimiter, createSingleFlight, QueueFullError } from '../../../lib/concurrency'
import { randomId } from '../../../lib/ids'
import placeholderPath from './placeholder.png' with { type: 'file' }
import { renderFirstPage, UnrenderablePdfError } from './render-first-page'

/** How many previews render at once: each holds a whole PDF in wasm memory while it renders. */
export const MAX_CONCURRENT_RENDERS = 2

/** A cached render on disk, or the neutral placeholder card (a file in the build, independent of sharp). */
export type Preview = { kind: 'rendered' | 'placeholder'; path: string }

export type PreviewService = { previewOf(row: SharedFile): Promise<Preview> }

/**
 * Previews are cached in the data dir by blob key, so a replacement (which writes a new blob) gets a new
 * preview, and the old one goes with the old blob. Concurrent requests for one blob share one render;
 * at most MAX_CONCURRENT_RENDERS run at a time. A PDF that cannot be rendered gets the placeholder, and the
 * failure is remembered so it is not retried on every request.
 */
export function createPreviewService(ctx: AppContext): PreviewService {
  const limit = createLimiter(MAX_CONCURRENT_RENDERS)
  const once = createSingleFlight<Preview>()
  const placeholder: Preview = { kind: 'placeholder', path: placeholderPath }

  const render = async (row: SharedFile): Promise<Preview> => {
    const path = previewPathOf(ctx.layout, row.blobKey)
    if (existsSync(path)) return { kind: 'rendered', path }
    if (existsSync(previewPathOf(ctx.layout, row.blobKey, 'failed'))) return placeholder
    try {
      const png = await limit(async () => renderFirstPage(await ctx.blobs.file(row.blobKey).bytes()))
      const temp = `${path}.${randomId(6)}.tmp`
      await writeFile(temp, png)
      await rename(temp, path) // readers never see a half-written preview
      return { kind: 'rendered', path }
    } catch (error) {
      if (error instanceof UnrenderablePdfError) {
        // The file itself cannot be rendered: remember it, so it is not retried on every request.
        ctx.log.info(`preview of file ${row.id}: PDFium cannot render it (${error.message}); serving the placeholder`)
        await writeFile(previewPathOf(ctx.layout, row.blobKey, 'failed'), '').catch(() => {})
      } else if (!(error instanceof QueueFullError)) {
        // Our side failed (e.g. the image encoder): serve the placeholder now and try again next time.
        ctx.log.error(`preview of file ${row.id} failed`, error)
      }
      return placeholder
    }
  }

  return { previewOf: (row) => once(row.blobKey, () => render(row)) }
}
