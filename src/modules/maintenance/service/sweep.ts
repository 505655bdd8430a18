import type { AppContext } from '../../../core/context'
import { files } from '../../../db/schema'

/**
 * Moves blobs no row points at (leftovers of a crash between "blob in place" and "row committed", or
 * between "row switched/deleted" and "old blob removed") to `orphans/`, and drops previews of blobs that are
 * gone. Run by the server at start, before it accepts requests, so no upload of this process can be
 * mid-commit. Nothing is deleted: a leftover is a few bytes of disk, a PDF wrongly taken for one (a database
 * that is not this data dir's slipping past the pairing check) would be a loss. Returns how many moved.
 */
export async function sweepUnreferencedBlobs(ctx: AppContext): Promise<number> {
  const referenced = new Set((await ctx.db.select({ key: files.blobKey }).from(files)).map((row) => row.key))
  let moved = 0
  for await (const key of ctx.blobs.keys()) {
    if (referenced.has(key)) continue
    await ctx.blobs.moveAside(key)
    moved++
  }
  await ctx.previews.discardAllBut(referenced)
  return moved
}
