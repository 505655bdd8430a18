import { asc, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { isTeamRole, type TeamRole } from './roles'
import { roleOf, type TeamAsker } from './team-rows'

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
