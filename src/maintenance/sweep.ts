import type { AppContext } from '../core/context'
import { sql } from 'drizzle-orm'

/**
 * Moves blobs no row points at — neither a file's current PDF nor a kept previous version — (leftovers of a crash between "blob in place" and "row committed", or
 * between "row switched/deleted" and "old blob removed") to `orphans/`, and drops previews of blobs that are
 * gone. Run by the server at start, before it accepts requests, so no upload of this process can be
 * mid-commit. With several instances on one database and bucket, another instance's upload can be: they pass
 * `minAgeMs` (SHARED_SWEEP_MIN_AGE_MS), and only blobs older than that with no row are moved. Nothing is deleted: a leftover is a few bytes of disk, a PDF wrongly taken for one (a database
 * that is not this data dir's slipping past the pairing check) would be a loss. The page counts of blobs no row
 * points at are dropped too. Returns how many moved.
 */
export async function sweepUnreferencedBlobs(ctx: AppContext, options: { minAgeMs?: number } = {}): Promise<number> {
  const { files, fileVersions, pdfPages } = ctx.db.tables
  const minAgeMs = options.minAgeMs ?? 0
  // The current PDFs and the kept previous versions, read in one transaction.
  const [current, versions] = await ctx.db.orm.batch([
    ctx.db.orm.select({ key: files.blobKey }).from(files),
    ctx.db.orm.select({ key: fileVersions.blobKey }).from(fileVersions),
  ])
  const referenced = new Set([...current, ...versions].map((row) => row.key))
  let moved = 0
  for await (const key of ctx.blobs.keys()) {
    if (referenced.has(key)) continue
    if (minAgeMs > 0) {
      // Another instance may have stored this blob and not yet committed its row: only an old one is left over.
      const found = await ctx.blobs.stat(key)
      if (!found || ctx.now() - found.modifiedAt < minAgeMs) continue
    }
    await ctx.blobs.moveAside(key)
    moved++
  }
  await ctx.previews.discardAllBut(referenced)
  await ctx.db.orm.run(
    sql`DELETE FROM ${pdfPages} WHERE ${pdfPages.blobKey} NOT IN (SELECT ${files.blobKey} FROM ${files}) AND ${pdfPages.blobKey} NOT IN (SELECT ${fileVersions.blobKey} FROM ${fileVersions})`,
  )
  return moved
}

/**
 * How old a blob without a row must be before a sweep among several instances takes it for a leftover. An
 * upload's blob is stored moments before its row commits, and an S3 multipart upload's Last-Modified is when
 * it began; a day is far beyond any upload (the idle timeout ends a stalled one in seconds).
 */
export const SHARED_SWEEP_MIN_AGE_MS = 24 * 60 * 60 * 1000
