import { and, eq, sql } from 'drizzle-orm'
import { notFound, teamOwnerOnly } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { fitsQuota, quotaRefusal } from '../files/quota'
import type { TeamRole } from './roles'
import { memberOf, roleOf } from './team-rows'

/** Who moves a file: the user, and what their token acts for (its owner id, and the team with the role, if any). */
export type Mover = { userId: string; ownerId: string; team: { id: string; role: TeamRole } | null }

/**
 * Moves a file of the caller's owner (their personal files, or their token's team's) to a team (`teamId`) or to
 * the caller's personal files (`null`). Into a team: the caller is its owner or editor. Out of a team: the
 * caller is its owner (an editor may not take the team's files away). Only `owner_id` changes: the file keeps
 * its id, versions, links (so its share URLs) and views. It leaves the rooms of its old owner (room_items), whose
 * rooms must name only their owner's files (core/rooms), in the same transaction. The new owner's quota counts the
 * file and its kept versions, checked inside the UPDATE. Returns the new owner's id.
 */
export async function moveFile(
  ctx: AppContext,
  input: { mover: Mover; fileId: string; teamId: string | null },
): Promise<{ ownerId: string }> {
  const { files, fileVersions, roomItems, rooms } = ctx.db.tables
  const { mover } = input
  const from = mover.ownerId
  const to = input.teamId ?? mover.userId
  if (!isWellFormedId(input.fileId)) throw notFound()
  if (mover.team && mover.team.role !== 'owner') throw teamOwnerOnly("move the team's files out of it")
  // The target team: a member's (404 otherwise), editor or owner.
  if (input.teamId !== null) {
    const role = await roleOf(ctx, { userId: mover.userId, tokenTeamId: null }, input.teamId)
    if (role === 'viewer') throw teamOwnerOnly('move files into it, or an editor')
  }
  const [file] = await ctx.db.orm
    .select({
      id: files.id,
      bytes: sql<number>`${files.size} + (SELECT coalesce(sum(${fileVersions.size}), 0) FROM ${fileVersions} WHERE ${fileVersions.fileId} = ${files.id})`,
    })
    .from(files)
    .where(and(eq(files.id, input.fileId), eq(files.ownerId, from)))
  if (!file) throw notFound()
  if (to === from) return { ownerId: to }
  const growth = { files: 1, bytes: Number(file.bytes) }
  const mayTake = input.teamId === null ? undefined : memberOf(ctx.db.tables, input.teamId, mover.userId, ['owner', 'editor'])
  const mayGive = mover.team === null ? undefined : memberOf(ctx.db.tables, mover.team.id, mover.userId, ['owner'])
  const [moved] = await ctx.db.orm.batch([
    ctx.db.orm
      .update(files)
      .set({ ownerId: to })
      .where(and(eq(files.id, input.fileId), eq(files.ownerId, from), mayTake, mayGive, fitsQuota(ctx.db.tables, to, growth)))
      .returning({ id: files.id }),
    ctx.db.orm.delete(roomItems).where(
      and(
        eq(roomItems.fileId, input.fileId),
        sql`${roomItems.roomId} IN (SELECT ${rooms.id} FROM ${rooms} WHERE ${rooms.ownerId} <> ${to})`,
        // Only when the UPDATE above moved it.
        sql`EXISTS (SELECT 1 FROM ${files} WHERE ${files.id} = ${input.fileId} AND ${files.ownerId} = ${to})`,
      ),
    ),
  ])
  if (moved.length === 0) throw await quotaRefusal(ctx, to, growth)
  return { ownerId: to }
}
