import { and, eq, sql } from 'drizzle-orm'
import { teamNotFound } from '../../errors'
import type { AppContext } from '../context'
import { discardBlob } from '../files/discard-blob'
import { assertTokenReaches, memberOf, ownerRefusal, type TeamAsker } from './team-rows'

/**
 * Deletes a team and everything it owns (its owners only): its files and their versions, and, through its owners
 * row (ON DELETE CASCADE), the team, its members, its tokens, rooms, requests, webhooks and channels. As a removed
 * user's (core/accounts/users/remove-user.ts): rows first, then the PDFs' bytes, so a crash in between leaves only
 * unreferenced blobs, which the next start moves aside. Every statement carries the owner condition.
 */
export async function deleteTeam(
  ctx: AppContext,
  input: { asker: TeamAsker; teamId: string },
): Promise<{ id: string; removedFiles: number }> {
  const { files, fileVersions, owners } = ctx.db.tables
  assertTokenReaches(input.asker, input.teamId)
  const isOwner = memberOf(ctx.db.tables, input.teamId, input.asker.userId, ['owner'])
  const [removedVersions, removedFiles, removedTeam] = await ctx.db.orm.batch([
    ctx.db.orm
      .delete(fileVersions)
      .where(and(sql`${fileVersions.fileId} IN (SELECT ${files.id} FROM ${files} WHERE ${files.ownerId} = ${input.teamId})`, isOwner))
      .returning({ blobKey: fileVersions.blobKey }),
    ctx.db.orm
      .delete(files)
      .where(and(eq(files.ownerId, input.teamId), isOwner))
      .returning({ blobKey: files.blobKey }),
    ctx.db.orm
      .delete(owners)
      .where(and(eq(owners.id, input.teamId), eq(owners.kind, 'team'), isOwner))
      .returning({ id: owners.id }),
  ])
  if (removedTeam.length === 0) throw (await ownerRefusal(ctx, input.asker, input.teamId, 'delete it')) ?? teamNotFound()
  for (const { blobKey } of [...removedFiles, ...removedVersions]) await discardBlob(ctx, blobKey)
  return { id: input.teamId, removedFiles: removedFiles.length }
}
