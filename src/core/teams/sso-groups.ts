import { and, eq, isNotNull, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { keepsAnotherOwner } from './change-member'
import { isTeamRole, type TeamRole } from './roles'

/** A membership a sign-in's groups changed: added (`was` null), changed, or removed (`role` null). */
export type GroupChange = { teamId: string; role: TeamRole | null; was: TeamRole | null; group: string }

const RANK: Record<TeamRole, number> = { viewer: 0, editor: 1, owner: 2 }

/** Per team, the highest role the user's groups map to (PDFSHARE_OIDC_TEAM_GROUPS), with the group that gives it. */
function wantedTeams(ctx: AppContext, groups: readonly string[]): Map<string, { role: TeamRole; group: string }> {
  const wanted = new Map<string, { role: TeamRole; group: string }>()
  for (const mapping of ctx.config.oidcTeamGroups) {
    if (!groups.includes(mapping.group)) continue
    const current = wanted.get(mapping.teamId)
    if (!current || RANK[mapping.role] > RANK[current.role]) wanted.set(mapping.teamId, { role: mapping.role, group: mapping.group })
  }
  return wanted
}

/**
 * At a single sign-on, the user's memberships follow their groups (docs/teams.md, Single sign-on groups): a
 * mapped group adds them to its team with its role, or updates a membership a mapping made; a membership a
 * mapping made whose group is gone is removed. A membership added by hand (`sso_group` NULL) is never touched,
 * and the last owner is never demoted or removed (keepsAnotherOwner, inside each statement). A mapping to a team
 * that does not exist is skipped, with a warning in the log.
 */
export async function followTeamGroups(ctx: AppContext, userId: string, groups: readonly string[]): Promise<GroupChange[]> {
  if (ctx.config.oidcTeamGroups.length === 0) return []
  const { teamMembers, teams } = ctx.db.tables
  const tables = ctx.db.tables
  const wanted = wantedTeams(ctx, groups)
  const current = await ctx.db.orm
    .select({ teamId: teamMembers.teamId, role: teamMembers.role, ssoGroup: teamMembers.ssoGroup })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId))
  const changes: GroupChange[] = []
  const mapped = (teamId: string) => and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), isNotNull(teamMembers.ssoGroup))
  for (const [teamId, want] of wanted) {
    const had = current.find((row) => row.teamId === teamId)
    if (!had) {
      const added = await ctx.db.orm.run(sql`
        INSERT INTO ${teamMembers} (team_id, user_id, role, created_at, sso_group)
        SELECT ${teamId}, ${userId}, ${want.role}, ${ctx.now()}, ${want.group}
        WHERE EXISTS (SELECT 1 FROM ${teams} WHERE ${teams.id} = ${teamId})
        ON CONFLICT DO NOTHING`)
      if (added.rowsAffected > 0) changes.push({ teamId, role: want.role, was: null, group: want.group })
      else ctx.log.error(`PDFSHARE_OIDC_TEAM_GROUPS maps the group ${JSON.stringify(want.group)} to ${teamId}, which is no team`)
      continue
    }
    if (had.ssoGroup === null || (had.role === want.role && had.ssoGroup === want.group)) continue
    const keepsOwner = want.role === 'owner' ? undefined : keepsAnotherOwner(tables, teamId, userId)
    const changed = await ctx.db.orm
      .update(teamMembers)
      .set({ role: want.role, ssoGroup: want.group })
      .where(and(mapped(teamId), keepsOwner))
      .returning({ teamId: teamMembers.teamId })
    if (changed.length > 0 && had.role !== want.role) {
      changes.push({ teamId, role: want.role, was: isTeamRole(had.role) ? had.role : null, group: want.group })
    }
  }
  for (const had of current) {
    if (had.ssoGroup === null || wanted.has(had.teamId)) continue
    const removed = await ctx.db.orm
      .delete(teamMembers)
      .where(and(mapped(had.teamId), keepsAnotherOwner(tables, had.teamId, userId)))
      .returning({ teamId: teamMembers.teamId })
    if (removed.length > 0)
      changes.push({ teamId: had.teamId, role: null, was: isTeamRole(had.role) ? had.role : null, group: had.ssoGroup })
  }
  return changes
}
