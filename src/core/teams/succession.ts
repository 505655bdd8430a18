import { and, inArray, sql, type SQL } from 'drizzle-orm'
import type { Tables } from '../../db/database'
import type { AppContext } from '../context'
import { fileCountOf } from '../files/usage'

/** A team the removed user was the only member of: deleted with them, its files too. */
export type DeletedTeam = { id: string; name: string; removedFiles: number }
/** The member who became a team's owner when its only owner was removed. */
export type PromotedOwner = { teamId: string; teamName: string; userId: string; name: string }

/**
 * SQL: the ids of the teams `userId` is the only member of. Removing the user removes these teams with their
 * files (docs/teams.md, When a team's only owner goes): nobody would be left to reach them.
 */
export function soloTeamsOf({ teamMembers }: Tables, userId: string): SQL {
  return sql`(SELECT mine.team_id FROM ${teamMembers} AS mine WHERE mine.user_id = ${userId}
    AND NOT EXISTS (SELECT 1 FROM ${teamMembers} AS others WHERE others.team_id = mine.team_id AND others.user_id <> ${userId}))`
}

/**
 * The UPDATE that gives each team `userId` is the only owner of a new owner, run in the transaction that removes
 * the user: the longest-standing editor, or the longest-standing viewer when there is no editor (ties: the
 * smaller user id, so the choice is the same on every backend). A team that keeps another owner is untouched.
 * `guard` is the removal's own condition, so when the removal is refused nobody is promoted.
 */
export function promoteHeirs(ctx: AppContext, userId: string, guard: SQL | undefined) {
  const { teamMembers } = ctx.db.tables
  const heir = sql`(SELECT heir.user_id FROM ${teamMembers} AS heir
    WHERE heir.team_id = ${teamMembers.teamId} AND heir.user_id <> ${userId}
    ORDER BY CASE heir.role WHEN 'editor' THEN 0 ELSE 1 END, heir.created_at, heir.user_id LIMIT 1)`
  return ctx.db.orm
    .update(teamMembers)
    .set({ role: 'owner' })
    .where(
      and(
        sql`${teamMembers.userId} = ${heir}`,
        sql`${teamMembers.teamId} IN (SELECT gone.team_id FROM ${teamMembers} AS gone WHERE gone.user_id = ${userId} AND gone.role = 'owner')`,
        sql`NOT EXISTS (SELECT 1 FROM ${teamMembers} AS others WHERE others.team_id = ${teamMembers.teamId} AND others.user_id <> ${userId} AND others.role = 'owner')`,
        guard,
      ),
    )
    .returning({ teamId: teamMembers.teamId, userId: teamMembers.userId })
}

/** The teams only `userId` is in, with their names and file counts: what a removal would delete. */
export async function soloTeams(ctx: AppContext, userId: string): Promise<DeletedTeam[]> {
  const { teams } = ctx.db.tables
  const rows = await ctx.db.orm
    .select({ id: teams.id, name: teams.name, removedFiles: sql<number>`${fileCountOf(ctx.db.tables, sql`${teams.id}`)}` })
    .from(teams)
    .where(sql`${teams.id} IN ${soloTeamsOf(ctx.db.tables, userId)}`)
  return rows.map((row) => ({ ...row, removedFiles: Number(row.removedFiles) }))
}

/** Names the promotions the UPDATE returned, for the answer and the audit log. */
export async function namePromotions(ctx: AppContext, promoted: { teamId: string; userId: string }[]): Promise<PromotedOwner[]> {
  if (promoted.length === 0) return []
  const { teams, users } = ctx.db.tables
  const [teamRows, userRows] = await Promise.all([
    ctx.db.orm
      .select({ id: teams.id, name: teams.name })
      .from(teams)
      .where(
        inArray(
          teams.id,
          promoted.map((p) => p.teamId),
        ),
      ),
    ctx.db.orm
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(
        inArray(
          users.id,
          promoted.map((p) => p.userId),
        ),
      ),
  ])
  const teamName = new Map(teamRows.map((row) => [row.id, row.name]))
  const userName = new Map(userRows.map((row) => [row.id, row.name]))
  return promoted.map((p) => ({ ...p, teamName: teamName.get(p.teamId) ?? '', name: userName.get(p.userId) ?? '' }))
}

/**
 * The audit entries a removal's effect on teams makes, each in the log it concerns: a promotion in the new
 * owner's (with `replaces`, the removed user), a deleted team in the removed user's (read by admins).
 */
export function successionEntries(
  removedUserId: string,
  effect: { deletedTeams: DeletedTeam[]; promotedOwners: PromotedOwner[] },
): { action: 'team.owner_promoted' | 'team.deleted'; userId: string; detail: Record<string, string | number> }[] {
  return [
    ...effect.promotedOwners.map((p) => ({
      action: 'team.owner_promoted' as const,
      userId: p.userId,
      detail: { teamId: p.teamId, name: p.teamName, userId: p.userId, role: 'owner', replaces: removedUserId },
    })),
    ...effect.deletedTeams.map((team) => ({
      action: 'team.deleted' as const,
      userId: removedUserId,
      detail: { teamId: team.id, name: team.name, removedFiles: team.removedFiles, lastMemberRemoved: removedUserId },
    })),
  ]
}
