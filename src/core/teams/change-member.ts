import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Tables } from '../../db/database'
import { lastTeamOwner, memberNotFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { listMembers, type Member } from './list-members'
import type { TeamRole } from './roles'
import { memberOf, ownerRefusal, roleOf, type TeamAsker } from './team-rows'

/** SQL: the team keeps an owner other than `userId` (the last-owner rule, decided inside the changing statement). */
export function keepsAnotherOwner({ teamMembers }: Tables, teamId: string, userId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${teamMembers} AS others WHERE others.team_id = ${teamId} AND others.user_id <> ${userId} AND others.role = 'owner')`
}

/**
 * Changes a member's role (the team's owners only). Demoting the last owner is refused (409 last_team_owner),
 * inside the UPDATE, so two owners demoting each other at once cannot both succeed.
 */
export async function changeMemberRole(
  ctx: AppContext,
  input: { asker: TeamAsker; teamId: string; userId: string; role: TeamRole },
): Promise<Member> {
  const { teamMembers } = ctx.db.tables
  const tables = ctx.db.tables
  const keepsOwner = input.role === 'owner' ? undefined : keepsAnotherOwner(tables, input.teamId, input.userId)
  const changed = await ctx.db.orm
    .update(teamMembers)
    // An owner's change makes a membership a single sign-on group made their own: the mapping no longer touches it.
    .set({ role: input.role, ssoGroup: null })
    .where(
      and(
        eq(teamMembers.teamId, input.teamId),
        eq(teamMembers.userId, input.userId),
        memberOf(tables, input.teamId, input.asker.userId, ['owner']),
        keepsOwner,
      ),
    )
    .returning({ userId: teamMembers.userId })
  if (changed.length === 0) throw await whyUnchanged(ctx, input, 'change roles')
  const members = await listMembers(ctx, input)
  return members.find((member) => member.userId === input.userId)!
}

/**
 * Why a change of a member changed nothing: the asker is not in the team (404) or not an owner (403; a member
 * leaving, `selfMayDo`, needs no role), the member is not in the team (404), or the change would leave the team
 * without an owner (409).
 */
export async function whyUnchanged(
  ctx: AppContext,
  input: { asker: TeamAsker; teamId: string; userId: string },
  what: string,
  selfMayDo = false,
): Promise<Error> {
  const self = selfMayDo && input.asker.userId === input.userId
  const refusal = self ? void (await roleOf(ctx, input.asker, input.teamId)) : await ownerRefusal(ctx, input.asker, input.teamId, what)
  if (refusal) return refusal
  if (!isWellFormedId(input.userId)) return memberNotFound()
  const { teamMembers } = ctx.db.tables
  const [member] = await ctx.db.orm
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, input.teamId), eq(teamMembers.userId, input.userId)))
  return member ? lastTeamOwner() : memberNotFound()
}
