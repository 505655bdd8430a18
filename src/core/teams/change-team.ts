import { and, eq } from 'drizzle-orm'
import { teamNotFound } from '../../errors'
import type { AppContext } from '../context'
import { type TeamWithRole, getTeam } from './list-teams'
import { teamName } from './rules'
import { memberOf, ownerRefusal, type TeamAsker } from './team-rows'

/** Renames a team: its owners only (the condition is in the UPDATE). */
export async function renameTeam(ctx: AppContext, input: { asker: TeamAsker; teamId: string; name: string }): Promise<TeamWithRole> {
  const { teams } = ctx.db.tables
  const name = teamName(input.name)
  const changed = await ctx.db.orm
    .update(teams)
    .set({ name, updatedAt: ctx.now() })
    .where(and(eq(teams.id, input.teamId), memberOf(ctx.db.tables, input.teamId, input.asker.userId, ['owner'])))
    .returning({ id: teams.id })
  if (changed.length === 0) throw (await ownerRefusal(ctx, input.asker, input.teamId, 'rename it')) ?? teamNotFound()
  return getTeam(ctx, input)
}
