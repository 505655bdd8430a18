import { and, eq, or } from 'drizzle-orm'
import type { AppContext } from '../context'
import { keepsAnotherOwner, whyUnchanged } from './change-member'
import { memberOf, type TeamAsker } from './team-rows'

/**
 * Takes a member out of a team: an owner may remove anyone, a member may leave. The last owner can do neither
 * to themselves (409 last_team_owner), decided in the DELETE. Their team tokens stop at their next request: the
 * authenticator reads the membership (core/accounts/authenticate.ts), and this commit empties its cache.
 */
export async function removeMember(
  ctx: AppContext,
  input: { asker: TeamAsker; teamId: string; userId: string },
): Promise<{ userId: string }> {
  const { teamMembers } = ctx.db.tables
  const tables = ctx.db.tables
  const mayRemove = or(
    memberOf(tables, input.teamId, input.asker.userId, ['owner']),
    input.asker.userId === input.userId ? memberOf(tables, input.teamId, input.asker.userId) : undefined,
  )
  const removed = await ctx.db.orm
    .delete(teamMembers)
    .where(
      and(
        eq(teamMembers.teamId, input.teamId),
        eq(teamMembers.userId, input.userId),
        mayRemove,
        keepsAnotherOwner(tables, input.teamId, input.userId),
      ),
    )
    .returning({ userId: teamMembers.userId })
  if (removed.length === 0) throw await whyUnchanged(ctx, input, 'remove members', true)
  return { userId: input.userId }
}
