import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { discardBlob } from './discard-blob'
import { getOwnedFile } from './get-owned-file'
import { type HeldKey, keptFirst } from '../idempotency/keep'
import { enqueueEvent } from '../webhooks/outbox'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

/**
 * Deletes the rows first (the file, its links and its kept versions, in one transaction), then the bytes and the
 * previews of its current PDF and of every version: once the rows are gone nothing serves those blobs, and a
 * crash before they are removed leaves only unreferenced blobs for the start-up sweep. The `file.deleted` webhook
 * deliveries go first in the same transaction, while the row is still there to show it is the owner's (the
 * deletes that follow in the transaction then take it away); so does the answer an Idempotency-Key keeps (`key`).
 */
export async function deleteOwnedFile(
  ctx: AppContext,
  input: { ownerId: string; id: string; key?: HeldKey<DeletedFile> },
): Promise<DeletedFile> {
  const { files, fileVersions } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw notFound()
  const owned = and(eq(files.id, input.id), eq(files.ownerId, input.ownerId))
  const file = await getOwnedFile(ctx, input) // for the event's filename; 404 early
  const stillThere = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${owned})`
  const announce = enqueueEvent(ctx.db, {
    event: 'file.deleted',
    ownerId: input.ownerId,
    data: { file: { id: file.id, filename: file.filename } },
    at: ctx.now(),
    onlyIf: stillThere,
  })
  const answer: DeletedFile = { id: file.id, filename: file.filename }
  const deleteVersions = ctx.db.orm
    .delete(fileVersions)
    .where(eq(fileVersions.fileId, sql`(SELECT ${files.id} FROM ${files} WHERE ${owned})`))
    .returning({ blobKey: fileVersions.blobKey })
  const deleteFile = ctx.db.orm.delete(files).where(owned).returning({ id: files.id, blobKey: files.blobKey })
  const results = await ctx.db.orm.batch(
    keptFirst(ctx, input.key, answer, stillThere, [ctx.db.orm.run(announce), deleteVersions, deleteFile]),
  )
  const versions = results.at(-2) as { blobKey: string }[]
  const [deleted] = results.at(-1) as { id: string; blobKey: string }[]
  if (!deleted) throw notFound()
  ctx.jobs.wake('outbox')
  await discardBlob(ctx, deleted.blobKey)
  for (const version of versions) await discardBlob(ctx, version.blobKey)
  return answer
}

/** What a delete answers: the file's id, and its filename for the audit log. */
export type DeletedFile = { id: string; filename: string }
