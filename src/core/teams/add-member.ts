import { eq, or, sql } from 'drizzle-orm'
import { badRequest, conflict, noAccountFor } from '../../errors'
import type { AppContext } from '../context'
import type { TeamRole } from './roles'
import { memberOf, ownerRefusal, type TeamAsker } from './team-rows'
import { listMembers, type Member } from './list-members'
import { inviteMember, type TeamInvitation } from './invitations'
import { getTeam } from './list-teams'

/** What adding someone did: an existing account became a member, or an address without one was invited. */
export type Added = { member: Member; invitation?: undefined } | { member?: undefined; invitation: TeamInvitation }

/**
 * Adds an existing account to a team with a role (its owners only; docs/teams.md). The account is named by its
 * user name or its email. An email that no account has gets an invitation (invitations.ts); a user name that
 * none has is a 404 `user_not_found`. Already a member: 409 (change the role with PATCH instead).
 */
export async function addMember(
  ctx: AppContext,
  input: { asker: TeamAsker & { name: string }; teamId: string; who: { username?: string; email?: string }; role: TeamRole },
): Promise<Added> {
  const { teamMembers, users } = ctx.db.tables
  const byName = input.who.username === undefined ? undefined : eq(users.name, input.who.username)
  const byEmail = input.who.email === undefined ? undefined : eq(users.email, input.who.email.trim().toLowerCase())
  if (byName === undefined && byEmail === undefined) throw badRequest('Name the account to add: its username or its email')
  // The owner check comes first: a non-owner learns nothing of which accounts exist.
  const refusal = await ownerRefusal(ctx, input.asker, input.teamId, 'add members')
  if (refusal) throw refusal
  const [user] = await ctx.db.orm.select({ id: users.id }).from(users).where(or(byName, byEmail)).limit(1)
  if (!user && input.who.username === undefined && input.who.email !== undefined) {
    const team = await getTeam(ctx, input)
    return {
      invitation: await inviteMember(ctx, {
        asker: input.asker,
        inviterName: input.asker.name,
        teamId: input.teamId,
        teamName: team.name,
        email: input.who.email,
        role: input.role,
      }),
    }
  }
  if (!user) throw noAccountFor(input.who.username ?? input.who.email ?? '')
  const isOwner = memberOf(ctx.db.tables, input.teamId, input.asker.userId, ['owner'])
  const added = await ctx.db.orm.run(sql`
    INSERT INTO ${teamMembers} (team_id, user_id, role, created_at)
    SELECT ${input.teamId}, ${user.id}, ${input.role}, ${ctx.now()} WHERE ${isOwner}
    ON CONFLICT DO NOTHING`)
  if (added.rowsAffected === 0) {
    throw (await ownerRefusal(ctx, input.asker, input.teamId, 'add members')) ?? conflict('This account is already a member of the team')
  }
  const members = await listMembers(ctx, input)
  return { member: members.find((member) => member.userId === user.id)! }
}
