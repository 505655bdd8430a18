import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { discardBlob } from './discard-blob'
import { getOwnedFile } from './get-owned-file'
import { type HeldKey, keptFirst } from '../idempotency/keep'
import { currentVersionNotDeletable, versionNotFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { VersionKey } from './find-version'

/**
 * Deletes a previous version of an owner's file: the row first, then its bytes and preview (a crash in between
 * leaves an unreferenced blob for the start-up sweep). Its bytes stop counting toward the quota at once. The
 * current version cannot be deleted (409): restore another one first, or delete the file. An Idempotency-Key's
 * answer (`key`) is kept in the transaction of the delete, if the version was there.
 */
export async function deleteVersion(ctx: AppContext, input: VersionKey & { key?: HeldKey<{ id: string }> }): Promise<{ id: string }> {
  const { files, fileVersions } = ctx.db.tables
  const file = await getOwnedFile(ctx, input)
  if (input.versionId === file.versionId) throw currentVersionNotDeletable()
  if (!isWellFormedId(input.versionId)) throw versionNotFound()
  const owned = and(
    eq(fileVersions.id, input.versionId),
    eq(
      fileVersions.fileId,
      sql`(SELECT ${files.id} FROM ${files} WHERE ${files.id} = ${input.id} AND ${files.ownerId} = ${input.ownerId})`,
    ),
  )
  const answer = { id: input.versionId }
  const results = await ctx.db.orm.batch(
    keptFirst(ctx, input.key, answer, sql`EXISTS (SELECT 1 FROM ${fileVersions} WHERE ${owned})`, [
      ctx.db.orm.delete(fileVersions).where(owned).returning({ blobKey: fileVersions.blobKey }),
    ]),
  )
  const [deleted] = results.at(-1) as { blobKey: string }[]
  if (!deleted) {
    // Restored meanwhile (it is the current one now), or deleted meanwhile.
    if ((await getOwnedFile(ctx, input)).versionId === input.versionId) throw currentVersionNotDeletable()
    throw versionNotFound()
  }
  await discardBlob(ctx, deleted.blobKey)
  return answer
}
