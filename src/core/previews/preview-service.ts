import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import type { FileRow } from '../../db/tables'
import { createSingleFlight } from '../../lib/concurrency'
import type { AppContext } from '../context'
import placeholderPath from './placeholder.png' with { type: 'file' }
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

/** A cached render on disk, or the neutral placeholder card (a file in the build, independent of sharp). */
export type Preview = { kind: 'rendered' | 'placeholder'; path: string }

/** The neutral card: answered when a render fails, and as the preview of a link that shows nothing of its document. */
export const PLACEHOLDER_PREVIEW: Preview = { kind: 'placeholder', path: placeholderPath }

/** What a preview is made of: the file's blob, and its id for the log line of a failure. */
export type PreviewedFile = Pick<FileRow, 'id' | 'blobKey'>

export type PreviewService = { previewOf(row: PreviewedFile): Promise<Preview>; close(): void }

/**
 * Previews are cached in the data dir by blob key, so a replacement (which writes a new blob) gets a new
 * preview, and the old one goes with the old blob. Concurrent requests for one blob share one render.
 * Renders run in killable renderer processes (renderer-pool.ts). Any failure of a render — too slow, too
 * large, PDFium's error, an empty bitmap — is remembered for that PDF version (a `.failed` file beside the
 * previews, holding the reason): it is logged once, and every later request gets the placeholder at once.
 * Only our own trouble (no renderer could start, too many renders waiting) is not remembered.
 */
export function createPreviewService(ctx: AppContext, pool: RendererPool = defaultPool(ctx)): PreviewService {
  const once = createSingleFlight<Preview>()
  const placeholder = PLACEHOLDER_PREVIEW
  let unavailableLoggedAt = -Infinity
  // The card is served from this disk either way; a bucket that refuses it only costs the others a render.
  const sharing = (row: PreviewedFile, kind: 'png' | 'failed') =>
    ctx.previews.push(row.blobKey, kind).catch((error) => ctx.log.error(`preview of file ${row.id}: not kept in the bucket: ${error}`))

  const render = async (row: PreviewedFile): Promise<Preview> => {
    const path = ctx.previews.pathOf(row.blobKey)
    const failedMarker = ctx.previews.pathOf(row.blobKey, 'failed')
    const cached = () => (existsSync(path) ? { kind: 'rendered' as const, path } : existsSync(failedMarker) ? placeholder : undefined)
    const known = cached() ?? ((await ctx.previews.pull(row.blobKey).catch(() => false)) ? cached() : undefined)
    if (known) return known
    try {
      const pdf = await ctx.blobs.localFile(row.blobKey)
      try {
        await pool.render(pdf.path, path)
      } finally {
        await pdf.release()
      }
      await sharing(row, 'png')
      return { kind: 'rendered', path }
    } catch (error) {
      await rm(`${path}.tmp`, { force: true }).catch(() => {})
      const reason = error instanceof Error ? error.message : String(error)
      if (error instanceof RenderFailed) {
        ctx.log.info(`preview of file ${row.id}: ${reason}; serving the placeholder for this version of the PDF`)
        await writeFile(failedMarker, `${reason}\n`).catch(() => {})
        await sharing(row, 'failed')
      } else if (ctx.now() - unavailableLoggedAt >= UNAVAILABLE_LOG_MS) {
        unavailableLoggedAt = ctx.now()
        ctx.log.error(`preview of file ${row.id}: ${reason}; serving the placeholder for now`)
      }
      return placeholder
    }
  }

  return { previewOf: (row) => once(row.blobKey, () => render(row)), close: () => pool.close() }
}

function defaultPool(ctx: AppContext): RendererPool {
  return createRendererPool({
    timeoutMs: ctx.config.previewTimeout * 1000,
    memoryBytes: ctx.config.previewMemory,
    concurrency: MAX_CONCURRENT_RENDERS,
    maxQueued: MAX_QUEUED_RENDERS,
    idleMs: RENDERER_IDLE_MS,
    command: rendererCommand(),
  })
}
