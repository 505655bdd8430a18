import { and, eq, or } from 'drizzle-orm'
import { badRequest, teamNotFound } from '../../errors'
import type { AppContext } from '../context'
import { findUserByName } from '../accounts/users/find-user'

/**
 * The id of a team `userName` is a member of, named by its id or its name (`pdfshare token issue NAME --team
 * TEAM`). A name two of the user's teams share is refused: the id says which.
 */
export async function memberTeamId(ctx: AppContext, input: { userName: string; team: string }): Promise<string> {
  const { teams, teamMembers } = ctx.db.tables
  const user = await findUserByName(ctx, input.userName)
  const rows = await ctx.db.orm
    .select({ id: teams.id })
    .from(teams)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, user.id)))
    .where(or(eq(teams.id, input.team), eq(teams.name, input.team)))
  const byId = rows.find((row) => row.id === input.team)
  if (byId) return byId.id
  if (rows.length > 1)
    throw badRequest(`${input.userName} is in ${rows.length} teams named ${JSON.stringify(input.team)}; name the team by its id`)
  if (!rows[0]) throw teamNotFound()
  return rows[0].id
}
