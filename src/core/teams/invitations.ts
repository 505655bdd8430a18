import { and, asc, count, eq, gt, isNull } from 'drizzle-orm'
import type { InvitationRow } from '../../db/tables'
import { conflict, invitationNotValid } from '../../errors'
import { createInvitation, invitationUrl } from '../accounts/invitations'
import { accountEmail } from '../accounts/email/address'
import type { AppContext } from '../context'
import { isTeamRole, type TeamRole } from './roles'
import { memberOf, ownerRefusal, type TeamAsker } from './team-rows'

/** How many invitations a team may have pending at once: each can make an account, so their number is bounded. */
export const MAX_PENDING_TEAM_INVITATIONS = 50

/** A team owner's pending invitation; `mailed` and `url` only in the answer that made it. */
export type TeamInvitation = {
  id: string
  email: string
  role: TeamRole
  createdAt: number
  expiresAt: number
  /** Whether the link was mailed (the server has mail); otherwise `url` is the link, for the owner to pass on. */
  mailed?: boolean
  url?: string | null
}

const pending = (ctx: AppContext, teamId: string) => {
  const { invitations } = ctx.db.tables
  return and(
    eq(invitations.teamId, teamId),
    isNull(invitations.usedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, ctx.now()),
  )
}

const toTeamInvitation = (row: InvitationRow): TeamInvitation => ({
  id: row.id,
  email: row.email ?? '',
  role: isTeamRole(row.teamRole) ? row.teamRole : 'viewer',
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
})

/**
 * Invites an address that has no account into a team (docs/teams.md, Inviting someone without an account): an
 * invitation like an admin's (core/accounts/invitations.ts; 7 days, used once, its secret's hash kept) whose
 * account, once made, joins the team with `role`. Mailed when the server has mail; otherwise the answer carries
 * the link for the owner to pass on. The caller checked that the asker is an owner (add-member.ts).
 */
export async function inviteMember(
  ctx: AppContext,
  input: { asker: TeamAsker; inviterName: string; teamId: string; teamName: string; email: string; role: TeamRole },
): Promise<TeamInvitation> {
  const { invitations } = ctx.db.tables
  const email = accountEmail(input.email, 'email')
  const [already] = await ctx.db.orm
    .select({ pending: count() })
    .from(invitations)
    .where(and(pending(ctx, input.teamId), eq(invitations.email, email)))
  if (Number(already?.pending) > 0) throw conflict('This address already has a pending invitation to the team; revoke it to send another')
  const [all] = await ctx.db.orm.select({ pending: count() }).from(invitations).where(pending(ctx, input.teamId))
  if (Number(all?.pending) >= MAX_PENDING_TEAM_INVITATIONS) {
    throw conflict(`The team has ${MAX_PENDING_TEAM_INVITATIONS} pending invitations; revoke some, or wait until they are used or expire`)
  }
  const mailed = ctx.config.smtpUrl !== undefined
  const { row, secret } = await createInvitation(ctx, {
    createdBy: input.asker.userId,
    admin: false,
    maxBytes: null,
    maxFiles: null,
    mail: mailed ? { to: email, from: input.inviterName } : undefined,
    team: { id: input.teamId, name: input.teamName, role: input.role, email },
  })
  return { ...toTeamInvitation(row), mailed, url: mailed ? null : invitationUrl(ctx.config.publicUrl, secret) }
}

/** A team's pending invitations, oldest first (its owners see them; core/teams/list-members.ts). */
export async function pendingTeamInvitations(ctx: AppContext, teamId: string): Promise<TeamInvitation[]> {
  const { invitations } = ctx.db.tables
  const rows = await ctx.db.orm.select().from(invitations).where(pending(ctx, teamId)).orderBy(asc(invitations.createdAt))
  return rows.map(toTeamInvitation)
}

/** An owner revokes one of the team's pending invitations; the owner condition is part of the UPDATE. */
export async function revokeTeamInvitation(
  ctx: AppContext,
  input: { asker: TeamAsker; teamId: string; invitationId: string },
): Promise<TeamInvitation> {
  const { invitations } = ctx.db.tables
  const [revoked] = await ctx.db.orm
    .update(invitations)
    .set({ revokedAt: ctx.now() })
    .where(
      and(
        eq(invitations.id, input.invitationId),
        pending(ctx, input.teamId),
        memberOf(ctx.db.tables, input.teamId, input.asker.userId, ['owner']),
      ),
    )
    .returning()
  if (!revoked) throw (await ownerRefusal(ctx, input.asker, input.teamId, 'revoke invitations')) ?? invitationNotValid()
  return toTeamInvitation(revoked)
}
