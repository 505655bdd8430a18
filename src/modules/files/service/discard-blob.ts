import type { AppContext } from '../../../context'
import { discardPreview } from '../../../data-dir'

/** Removes a blob that no row points at any more, together with its cached preview. */
export async function discardBlob(ctx: AppContext, blobKey: string): Promise<void> {
  await ctx.blobs.delete(blobKey)
  await discardPreview(ctx.layout, blobKey)
}
