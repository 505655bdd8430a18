import { eq, sql } from 'drizzle-orm'
import type { TeamRow } from '../../db/tables'
import { badRequest, teamNotFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { fileCountOf, storedBytesOf, type Usage } from '../files/usage'

/** A team as an admin sees it: its name, members, usage and limits; never its files (docs/teams.md, Quotas). */
export type AdminTeam = TeamRow & { usage: Usage; members: number; owners: number }

/** Every team by name, with what it uses (its files and their kept versions, as the quota counts them). */
export async function listTeamsForAdmin(ctx: AppContext): Promise<AdminTeam[]> {
  const { teams, teamMembers } = ctx.db.tables
  const team = sql`${teams.id}`
  const rows = await ctx.db.orm
    .select({
      team: teams,
      files: sql<number>`${fileCountOf(ctx.db.tables, team)}`,
      bytes: sql<number>`${storedBytesOf(ctx.db.tables, team)}`,
      members: sql<number>`(SELECT count(*) FROM ${teamMembers} WHERE ${teamMembers.teamId} = ${team})`,
      owners: sql<number>`(SELECT count(*) FROM ${teamMembers} WHERE ${teamMembers.teamId} = ${team} AND ${teamMembers.role} = 'owner')`,
    })
    .from(teams)
    .orderBy(teams.name, teams.id)
  return rows.map((row) => ({
    ...row.team,
    usage: { files: Number(row.files), bytes: Number(row.bytes ?? 0) },
    members: Number(row.members),
    owners: Number(row.owners),
  }))
}

/**
 * An admin sets a team's limits (null: unlimited; omitted: unchanged). The quota check (core/files/quota.ts)
 * reads them from the team's row on the team's next upload; what the team stores already stays.
 */
export async function setTeamQuota(
  ctx: AppContext,
  input: { teamId: string; maxBytes?: number | null; maxFiles?: number | null },
): Promise<AdminTeam> {
  const { teams } = ctx.db.tables
  if (!isWellFormedId(input.teamId)) throw teamNotFound()
  const change = {
    ...(input.maxBytes !== undefined && { maxBytes: input.maxBytes }),
    ...(input.maxFiles !== undefined && { maxFiles: input.maxFiles }),
  }
  if (Object.keys(change).length === 0) throw badRequest('Send maxStorageBytes or maxFiles (a whole number from 0, or null for unlimited)')
  const [updated] = await ctx.db.orm
    .update(teams)
    .set({ ...change, updatedAt: ctx.now() })
    .where(eq(teams.id, input.teamId))
    .returning({ id: teams.id })
  if (!updated) throw teamNotFound()
  const team = (await listTeamsForAdmin(ctx)).find((row) => row.id === updated.id)
  if (!team) throw teamNotFound()
  return team
}
