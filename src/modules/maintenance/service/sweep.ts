import type { AppContext } from '../../../core/context'
import { files, fileVersions } from '../../../db/tables'

/**
 * Moves blobs no row points at — neither a file's current PDF nor a kept previous version — (leftovers of a crash between "blob in place" and "row committed", or
 * between "row switched/deleted" and "old blob removed") to `orphans/`, and drops previews of blobs that are
 * gone. Run by the server at start, before it accepts requests, so no upload of this process can be
 * mid-commit. Nothing is deleted: a leftover is a few bytes of disk, a PDF wrongly taken for one (a database
 * that is not this data dir's slipping past the pairing check) would be a loss. Returns how many moved.
 */
export async function sweepUnreferencedBlobs(ctx: AppContext): Promise<number> {
  // The current PDFs and the kept previous versions, read in one transaction.
  const [current, versions] = await ctx.db.batch([
    ctx.db.select({ key: files.blobKey }).from(files),
    ctx.db.select({ key: fileVersions.blobKey }).from(fileVersions),
  ])
  const referenced = new Set([...current, ...versions].map((row) => row.key))
  let moved = 0
  for await (const key of ctx.blobs.keys()) {
    if (referenced.has(key)) continue
    await ctx.blobs.moveAside(key)
    moved++
  }
  await ctx.previews.discardAllBut(referenced)
  return moved
}
