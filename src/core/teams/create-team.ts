import type { TeamRow } from '../../db/tables'
import { insufficientScope } from '../../errors'
import { randomId } from '../../lib/ids'
import type { AppContext } from '../context'
import { teamName } from './rules'
import type { TeamAsker } from './team-rows'

/** Creates a team with the asker as its one owner: its owners row, the team and the membership in one transaction. */
export async function createTeam(ctx: AppContext, input: { asker: TeamAsker; name: string }): Promise<TeamRow> {
  const { owners, teams, teamMembers } = ctx.db.tables
  if (input.asker.tokenTeamId !== null) {
    throw insufficientScope('teams:write', 'A team token acts for its team only; create a team with a personal token')
  }
  const now = ctx.now()
  const team: TeamRow = { id: randomId(), name: teamName(input.name), createdAt: now, updatedAt: now, maxBytes: null, maxFiles: null }
  await ctx.db.orm.batch([
    ctx.db.orm.insert(owners).values({ id: team.id, kind: 'team' }),
    ctx.db.orm.insert(teams).values(team),
    ctx.db.orm.insert(teamMembers).values({ teamId: team.id, userId: input.asker.userId, role: 'owner', createdAt: now }),
  ])
  return team
}
