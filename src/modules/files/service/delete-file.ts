import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { discardBlob } from '../../../core/files/discard-blob'
import { files } from '../../../db/schema'
import { notFound } from '../../../errors'
import { isWellFormedId } from '../../../lib/ids'

/**
 * Deletes the row first, then the bytes and the preview: once the row is gone nothing serves the blob, and a crash before
 * the blob is removed leaves only an unreferenced blob for the start-up sweep.
 */
export async function deleteOwnedFile(ctx: AppContext, input: { ownerId: string; id: string }): Promise<{ id: string }> {
  if (!isWellFormedId(input.id)) throw notFound()
  const [deleted] = await ctx.db
    .delete(files)
    .where(and(eq(files.id, input.id), eq(files.ownerId, input.ownerId)))
    .returning({ id: files.id, blobKey: files.blobKey })
  if (!deleted) throw notFound()
  await discardBlob(ctx, deleted.blobKey)
  return { id: deleted.id }
}
