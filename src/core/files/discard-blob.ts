import type { AppContext } from '../context'

/**
 * Removes a blob that no row points at any more, together with its cached preview and its page count. Called after the row
 * change has committed, so a failure here must not fail the request: the blob is only unreferenced, and
 * the start-up sweep moves it to orphans/ (or `verify --repair` removes it) later.
 */
export async function discardBlob(ctx: AppContext, blobKey: string): Promise<void> {
  try {
    await ctx.blobs.delete(blobKey)
    await ctx.previews.discard(blobKey)
    await ctx.db.hot.runGroups([[{ sql: 'DELETE FROM pdf_pages WHERE blob_key = ?', args: [blobKey] }]])
  } catch (error) {
    ctx.log.error(`could not remove unreferenced blob ${blobKey}; the next start moves it to orphans/`, error)
  }
}
