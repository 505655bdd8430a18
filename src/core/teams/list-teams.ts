import { and, asc, eq, type SQL } from 'drizzle-orm'
import type { TeamRow } from '../../db/tables'
import { teamNotFound } from '../../errors'
import type { AppContext } from '../context'
import { isTeamRole, type TeamRole } from './roles'
import { assertTokenReaches, type TeamAsker } from './team-rows'

export type TeamWithRole = TeamRow & { role: TeamRole }

async function teamsOf(ctx: AppContext, asker: TeamAsker, only?: SQL): Promise<TeamWithRole[]> {
  const { teams, teamMembers } = ctx.db.tables
  const rows = await ctx.db.orm
    .select({ team: teams, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.userId, asker.userId), asker.tokenTeamId === null ? undefined : eq(teams.id, asker.tokenTeamId), only))
    .orderBy(asc(teams.name), asc(teams.id))
  return rows.flatMap(({ team, role }) => (isTeamRole(role) ? [{ ...team, role }] : []))
}

/** The teams the asker is a member of, by name, each with the asker's role (a team token: its own team only). */
export function listTeams(ctx: AppContext, asker: TeamAsker): Promise<TeamWithRole[]> {
  return teamsOf(ctx, asker)
}

/** One team of the asker's; any other id is a 404. */
export async function getTeam(ctx: AppContext, input: { asker: TeamAsker; teamId: string }): Promise<TeamWithRole> {
  assertTokenReaches(input.asker, input.teamId)
  const [team] = await teamsOf(ctx, input.asker, eq(ctx.db.tables.teams.id, input.teamId))
  if (!team) throw teamNotFound()
  return team
}
