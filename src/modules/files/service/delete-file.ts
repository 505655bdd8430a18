import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { discardBlob } from '../../../core/files/discard-blob'
import { getOwnedFile } from '../../../core/files/get-owned-file'
import { enqueueEvent } from '../../../core/webhooks/outbox'
import { outboxWritten } from '../../../core/webhooks/wake'
import { notFound } from '../../../errors'
import { isWellFormedId } from '../../../lib/ids'

/**
 * Deletes the rows first (the file, its links and its kept versions, in one transaction), then the bytes and the
 * previews of its current PDF and of every version: once the rows are gone nothing serves those blobs, and a
 * crash before they are removed leaves only unreferenced blobs for the start-up sweep. The `file.deleted` webhook
 * deliveries go first in the same transaction, while the row is still there to show it is the owner's (the
 * deletes that follow in the transaction then take it away).
 */
export async function deleteOwnedFile(ctx: AppContext, input: { ownerId: string; id: string }): Promise<{ id: string; filename: string }> {
  const { files, fileVersions } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw notFound()
  const owned = and(eq(files.id, input.id), eq(files.ownerId, input.ownerId))
  const file = await getOwnedFile(ctx, input) // for the event's filename; 404 early
  const announce = enqueueEvent(ctx.db, {
    event: 'file.deleted',
    ownerId: input.ownerId,
    data: { file: { id: file.id, filename: file.filename } },
    at: ctx.now(),
    onlyIf: sql`EXISTS (SELECT 1 FROM ${files} WHERE ${owned})`,
  })
  const [, versions, [deleted]] = await ctx.db.orm.batch([
    ctx.db.orm.run(announce),
    ctx.db.orm
      .delete(fileVersions)
      .where(eq(fileVersions.fileId, sql`(SELECT ${files.id} FROM ${files} WHERE ${owned})`))
      .returning({ blobKey: fileVersions.blobKey }),
    ctx.db.orm.delete(files).where(owned).returning({ id: files.id, blobKey: files.blobKey }),
  ])
  if (!deleted) throw notFound()
  outboxWritten(ctx)
  await discardBlob(ctx, deleted.blobKey)
  for (const version of versions) await discardBlob(ctx, version.blobKey)
  return { id: deleted.id, filename: file.filename }
}
