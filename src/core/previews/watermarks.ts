import { existsSync, statSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { createSingleFlight } from '../../lib/concurrency'
import { hmacSha256 } from '../../lib/hmac'
import { canonicalAddress } from '../links/readers'
import type { FileRow } from '../../db/tables'
import type { AppContext } from '../context'
import { withLocalPdf } from './local-pdf'
import { RenderFailed, type RendererPool } from './renderer-pool'

/**
 * A page image with a reader's watermark drawn into its pixels, or why not: the renderers are all busy, or the page
 * is gone from the cache meanwhile (`busy`, worth asking again), or a renderer failed at it (`failed`: the same
 * page, text and limits would fail again).
 */
export type WatermarkedImage = { kind: 'image'; bytes: Buffer } | { kind: 'busy' } | { kind: 'failed' }

/** A PDF with a reader's watermark on every page, on disk, or why not: it cannot be stamped (`failed`), or `busy`. */
export type StampedPdf = { kind: 'stamped'; path: string; size: number } | { kind: 'failed' } | { kind: 'busy' }

/**
 * What the page cache names a reader's watermarked files by, besides their text: a keyed hash of the reader's
 * canonical address (`anyone` for a reader who gave none). The files hold the address (in pixels, in the PDF's
 * text) under a name that does not; erasing the reader finds them by this tag (PreviewCache.discardReader).
 */
export const watermarkTag = (key: Uint8Array, reader: string | null): string =>
  reader === null
    ? 'anyone'
    : hmacSha256(key, `watermark reader\n${canonicalAddress(reader)}`)
        .toString('hex')
        .slice(0, 16)

export type Watermarks = {
  /** The page image at `imagePath` (a cached WebP) with `text` drawn across it, for `reader` (the address they gave, or null). */
  imageWith(imagePath: string, text: string, reader: string | null): Promise<WatermarkedImage>
  /** The file's PDF with `text` drawn across every page: made once per PDF version and text, then kept. */
  pdfWith(row: Pick<FileRow, 'id' | 'blobKey'>, text: string, reader: string | null): Promise<StampedPdf>
}

/**
 * Watermarks drawn per reader (docs/share-page.md, "Watermarks"). A page image gets its watermark as an overlay
 * laid over the cached page: the overlay is drawn once per text and image size by a renderer (watermark-jobs.ts)
 * and kept in the page cache, so a reader's later pages cost one composite each (measured in the bench), also
 * made by a renderer (lay-watermark.ts): a loop over every pixel, never on the server's event loop. A
 * download gets a copy of the PDF with the text on every page, also kept in the page cache (a reader who
 * downloads twice, or readers who share a text, get the same copy; range requests read it like the PDF). A PDF
 * that cannot be stamped (encrypted, or beyond pdf-lib) is remembered like a page that cannot be drawn.
 */
export function watermarks(ctx: AppContext, pool: RendererPool): Watermarks {
  const overlays = createSingleFlight<'drawn' | 'busy' | 'failed'>()
  const stamps = createSingleFlight<StampedPdf>()
  // A stamp waits for its renderer while the reader's download waits for its first byte: it must end before the
  // connection is dropped as silent (PDFSHARE_IDLE_TIMEOUT), and may take longer than a preview.
  const stampTimeoutMs = Math.max(ctx.config.previewTimeout, ctx.config.idleTimeout - 5) * 1000

  const overlayOf = async (text: string, tag: string, width: number, height: number) => {
    const path = ctx.previews.overlayPathOf(`${text}\n${width}x${height}`, tag)
    if (existsSync(path)) {
      ctx.previews.pageUsed(path)
      return { kind: 'drawn', path } as const
    }
    const drawn = await overlays(path, async () => {
      try {
        await pool.overlay(path, { text, width, height })
        ctx.previews.pageWritten(path)
        return 'drawn'
      } catch (error) {
        if (!(error instanceof RenderFailed)) return 'busy'
        ctx.log.error(`a watermark overlay could not be drawn: ${error.message}`)
        return 'failed'
      }
    })
    return drawn === 'drawn' ? ({ kind: 'drawn', path } as const) : { kind: drawn }
  }

  return {
    async imageWith(imagePath, text, reader) {
      // The page's bytes, read once: its size is read from them and the renderer lays the overlay over them. Read
      // by name, sharp (libvips) answers what it read of that name before, and the cache writes a page anew under
      // its name (page 1 drawn ahead over a reader's drawing, a pixel taller): the overlay then never fitted.
      const page = await readFile(imagePath).catch(() => undefined)
      if (!page) return { kind: 'busy' } // gone from the cache meanwhile: drawn again on the next request
      const sharp = (await import('sharp')).default // loaded on first use: start-up stays quick
      const { width, height } = await sharp(page).metadata() // the image's header alone
      const overlay = await overlayOf(text, watermarkTag(ctx.signingKey, reader), width, height)
      if (overlay.kind !== 'drawn') return overlay
      try {
        return { kind: 'image', bytes: await pool.watermark(page, overlay.path) }
      } catch (error) {
        if (!(error instanceof RenderFailed)) return { kind: 'busy' }
        // Not a 503 to try again for ever: the same page and overlay would fail the same way. The overlay goes
        // (one damaged on disk, or drawn for another size, is drawn anew for the next request).
        ctx.log.error(`a watermark could not be laid over a page: ${error.message}`)
        await rm(overlay.path, { force: true }).catch(() => {})
        return { kind: 'failed' }
      }
    },

    async pdfWith(row, text, reader) {
      const tag = watermarkTag(ctx.signingKey, reader)
      const path = ctx.previews.stampedPathOf(row.blobKey, text, 'pdf', tag)
      const mark = ctx.previews.stampedPathOf(row.blobKey, text, 'failed', tag)
      if (existsSync(path)) {
        ctx.previews.pageUsed(path)
        return { kind: 'stamped', path, size: statSync(path).size }
      }
      if (existsSync(mark)) return { kind: 'failed' }
      return stamps(path, () =>
        withLocalPdf(ctx, row.blobKey, async (pdfPath): Promise<StampedPdf> => {
          try {
            await pool.stamp(pdfPath, path, { text, timeoutMs: stampTimeoutMs })
            ctx.previews.pageWritten(path)
            return { kind: 'stamped', path, size: statSync(path).size }
          } catch (error) {
            await rm(`${path}.tmp`, { force: true }).catch(() => {})
            if (!(error instanceof RenderFailed)) return { kind: 'busy' }
            ctx.log.info(`a watermarked copy of file ${row.id}: ${error.message}; its downloads are refused`)
            await writeFile(mark, `${error.message}\n`).catch(() => {})
            ctx.previews.pageWritten(mark)
            return { kind: 'failed' }
          }
        }),
      )
    },
  }
}
