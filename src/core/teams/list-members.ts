import { asc, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { isTeamRole, type TeamRole } from './roles'
import { roleOf, type TeamAsker } from './team-rows'
import { pendingTeamInvitations, type TeamInvitation } from './invitations'

export type Member = { userId: string; name: string; role: TeamRole; createdAt: number }

/** A team's members by name (any member may see them; anyone else gets the team's 404). */
export async function listMembers(ctx: AppContext, input: { asker: TeamAsker; teamId: string }): Promise<Member[]> {
  const { teamMembers, users } = ctx.db.tables
  await roleOf(ctx, input.asker, input.teamId)
  const rows = await ctx.db.orm
    .select({ userId: teamMembers.userId, name: users.name, role: teamMembers.role, createdAt: teamMembers.createdAt })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, input.teamId))
    .orderBy(asc(users.name))
  return rows.flatMap((row) => (isTeamRole(row.role) ? [{ ...row, role: row.role }] : []))
}

/** A team's members, and for its owners its pending invitations too (an address is not for every member to read). */
export async function teamRoster(
  ctx: AppContext,
  input: { asker: TeamAsker; teamId: string },
): Promise<{ members: Member[]; invitations: TeamInvitation[] }> {
  const members = await listMembers(ctx, input)
  const asker = members.find((member) => member.userId === input.asker.userId)
  return { members, invitations: asker?.role === 'owner' ? await pendingTeamInvitations(ctx, input.teamId) : [] }
}
