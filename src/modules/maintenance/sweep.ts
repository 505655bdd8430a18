import { readdir } from 'node:fs/promises'
import type { AppContext } from '../../context'
import { discardPreview } from '../../data-dir'
import { files } from '../../db/schema'
import { discardBlob } from '../files/service/discard-blob'

/**
 * Removes blobs no row points at (leftovers of a crash between "blob in place" and "row committed", or
 * between "row switched/deleted" and "old blob removed") and previews of blobs that are gone. Run by the
 * server at start, before it accepts requests, so no upload of this process can be mid-commit.
 */
export async function sweepUnreferencedBlobs(ctx: AppContext): Promise<number> {
  const referenced = new Set((await ctx.db.select({ key: files.blobKey }).from(files)).map((row) => row.key))
  let removed = 0
  for await (const key of ctx.blobs.keys()) {
    if (referenced.has(key)) continue
    await discardBlob(ctx, key)
    removed++
  }
  for (const name of await readdir(ctx.layout.previews).catch(() => [] as string[])) {
    const key = name.split('.')[0] ?? ''
    if (!referenced.has(key)) await discardPreview(ctx.layout, key)
  }
  return removed
}
