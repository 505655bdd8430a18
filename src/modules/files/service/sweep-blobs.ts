import type { AppContext } from '../../../context'
import { files } from '../../../db/schema'

/**
 * Removes blobs no row points at: leftovers of a crash between "blob in place" and "row committed", or
 * between "row switched/deleted" and "old blob removed". Run by the server at start, before it accepts
 * requests, so no upload of this process can be mid-commit.
 */
export async function sweepUnreferencedBlobs(ctx: AppContext): Promise<number> {
  const referenced = new Set((await ctx.db.select({ key: files.blobKey }).from(files)).map((row) => row.key))
  let removed = 0
  for await (const key of ctx.blobs.keys()) {
    if (referenced.has(key)) continue
    await ctx.blobs.delete(key)
    removed++
  }
  return removed
}
