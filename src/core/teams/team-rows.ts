import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Tables } from '../../db/database'
import { teamNotFound, teamOwnerOnly } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { isTeamRole, type TeamRole } from './roles'

/**
 * Who asks about a team: the user, and the team their token acts for (null: a personal token). A team token
 * reaches its own team only; a personal token every team its user is a member of.
 */
export type TeamAsker = { userId: string; tokenTeamId: string | null }

/**
 * SQL: `userId` is a member of `teamId`, with a role among `roles` (every role when omitted). Every team service
 * puts it into the statement that reads or writes, so membership is decided where the change is made.
 */
export function memberOf({ teamMembers }: Tables, teamId: string | SQL, userId: string | SQL, roles?: readonly TeamRole[]): SQL {
  const role = roles
    ? sql` AND ${teamMembers.role} IN (${sql.join(
        roles.map((r) => sql`${r}`),
        sql`, `,
      )})`
    : sql``
  return sql`EXISTS (SELECT 1 FROM ${teamMembers} WHERE ${teamMembers.teamId} = ${teamId} AND ${teamMembers.userId} = ${userId}${role})`
}

/** The asker's role in the team; a team they are not in (or another team than their token's) is a 404. */
export async function roleOf(ctx: AppContext, asker: TeamAsker, teamId: string): Promise<TeamRole> {
  const { teamMembers } = ctx.db.tables
  assertTokenReaches(asker, teamId)
  const [row] = await ctx.db.orm
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, asker.userId)))
  if (!row || !isTeamRole(row.role)) throw teamNotFound()
  return row.role
}

/**
 * Why a write the asker's ownership condition guarded changed nothing: not a member (404), or not an owner
 * (403 team_owner_only, naming `what`). Undefined when the asker is an owner: the write failed for another reason.
 */
export async function ownerRefusal(ctx: AppContext, asker: TeamAsker, teamId: string, what: string): Promise<Error | undefined> {
  const role = await roleOf(ctx, asker, teamId)
  return role === 'owner' ? undefined : teamOwnerOnly(what)
}

/** The asker's team (checked before a write), or the 404: a token for another team sees none. */
export function assertTokenReaches(asker: TeamAsker, teamId: string): void {
  if (!isWellFormedId(teamId) || (asker.tokenTeamId !== null && asker.tokenTeamId !== teamId)) throw teamNotFound()
}
