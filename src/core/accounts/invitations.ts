import { and, desc, eq, gt, isNull } from 'drizzle-orm'
import { secretHash } from '../../lib/secret-hash'
import type { AppContext } from '../context'
import type { InvitationRow, UserRow } from '../../db/tables'
import { badRequest, invitationNotValid } from '../../errors'
import { randomId } from '../../lib/ids'
import { hashPassword } from '../passwords/argon2'
import { passwordProblem } from './password-rule'
import { addUser } from './users/add-user'
import { mailRow, requireMail } from '../mail/message'
import { mailWords, paragraphs } from '../i18n/mail-words'
import type { Translate } from '../i18n/translator'
import type { Language } from '../../shared/languages'
import { isTeamRole, type TeamRole } from '../teams/roles'

/** How long an invitation link works. */
export const INVITATION_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000

export type NewInvitation = { row: InvitationRow; secret: string }

/**
 * An invitation to make an account: a 128-bit secret, shown once (only its SHA-256 is kept), valid
 * INVITATION_DAYS days, used once. The account it makes is an admin or not and has these limits.
 */
export async function createInvitation(
  ctx: AppContext,
  input: {
    createdBy: string
    admin: boolean
    maxBytes: number | null
    maxFiles: number | null
    /**
     * Send the link by mail too: to this address, from this admin (by name), in the same batch as the invitation; in
     * the admin's language (their account's, else the one their request `asked` for, else the instance's default).
     */
    mail?: { to: string; from: string; asked?: Language }
    /** A team owner's invitation: the new account joins this team with this role (core/teams/invitations.ts). */
    team?: { id: string; name: string; role: TeamRole; email: string }
  },
): Promise<NewInvitation> {
  const { invitations, mailOutbox, users } = ctx.db.tables
  if (input.mail) requireMail(ctx)
  const secret = randomId(16)
  const now = ctx.now()
  const insert = ctx.db.orm
    .insert(invitations)
    .values({
      id: randomId(),
      secretHash: secretHash(secret),
      createdBy: input.createdBy,
      createdAt: now,
      expiresAt: now + INVITATION_DAYS * DAY_MS,
      admin: input.admin,
      maxBytes: input.maxBytes,
      maxFiles: input.maxFiles,
      usedAt: null,
      usedBy: null,
      revokedAt: null,
      email: (input.mail?.to ?? input.team?.email)?.trim().toLowerCase() ?? null,
      teamId: input.team?.id ?? null,
      teamRole: input.team?.role ?? null,
    })
    .returning()
  if (!input.mail) {
    const [row] = await insert
    return { row: row!, secret }
  }
  const [inviter] = await ctx.db.orm.select({ language: users.language }).from(users).where(eq(users.id, input.createdBy))
  const t = mailWords(ctx.config.defaultLanguage, { account: inviter?.language, asked: input.mail.asked })
  const mail = invitationMail(t, invitationUrl(ctx.config.publicUrl, secret), input.mail.from, ctx.config.publicUrl, input.team)
  const [[row]] = await ctx.db.orm.batch([insert, ctx.db.orm.insert(mailOutbox).values(mailRow(ctx, { ...mail, to: input.mail.to }))])
  ctx.jobs.wake('outbox')
  return { row: row!, secret }
}

/** Where an invitation is used: the dashboard's join page (the secret after #, so it never reaches a server log). */
export const invitationUrl = (publicUrl: string, secret: string) => `${publicUrl}/app#/join/${secret}`

/** The invitation as a mail: who invites, where (and to which team, with which role), and until when it works. */
function invitationMail(t: Translate, url: string, inviter: string, publicUrl: string, team?: { name: string; role: TeamRole }) {
  return {
    kind: team ? 'team invitation' : 'invitation',
    subject: team ? t('mail.invitation.teamSubject', { inviter, team: team.name }) : t('mail.invitation.subject', { inviter }),
    text: paragraphs(
      team
        ? t('mail.invitation.teamInvites', { inviter, team: team.name, role: team.role, site: publicUrl })
        : t('mail.invitation.invites', { inviter, site: publicUrl }),
      t('mail.invitation.link', { days: INVITATION_DAYS, url }),
      t('mail.invitation.ignore'),
    ),
    language: t.language,
  }
}

/** The invitations that still work (not used, revoked or expired), newest first. */
export async function pendingInvitations(ctx: AppContext): Promise<InvitationRow[]> {
  const { invitations } = ctx.db.tables
  return ctx.db.orm
    .select()
    .from(invitations)
    .where(and(isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, ctx.now())))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
}

/** Revokes an invitation that still works; 404 for any other id. */
export async function revokeInvitation(ctx: AppContext, id: string): Promise<InvitationRow> {
  const { invitations } = ctx.db.tables
  const [revoked] = await ctx.db.orm
    .update(invitations)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(invitations.id, id), isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, ctx.now())))
    .returning()
  if (!revoked) throw invitationNotValid()
  return revoked
}

/**
 * Makes the invited account with its name and password. The invitation is claimed in one statement (only an
 * unused, unrevoked, unexpired one), so two people with the same link cannot both get an account; a weak
 * password, a link that does not work or a taken name are refused before anything is claimed (a name that is
 * not a valid user name, or taken meanwhile, gives the invitation back).
 */
export async function acceptInvitation(
  ctx: AppContext,
  input: { secret: string; name: string; password: string },
): Promise<{ user: UserRow; invitation: InvitationRow }> {
  const { invitations, users } = ctx.db.tables
  const problem = passwordProblem(input.password)
  if (problem) throw badRequest(problem)
  const stillValid = () =>
    and(
      eq(invitations.secretHash, secretHash(input.secret)),
      isNull(invitations.usedAt),
      isNull(invitations.revokedAt),
      gt(invitations.expiresAt, ctx.now()),
    )
  // A link that does not work costs no password hashing.
  const [valid] = await ctx.db.orm.select({ id: invitations.id }).from(invitations).where(stillValid())
  if (!valid) throw invitationNotValid()
  const [existing] = await ctx.db.orm.select({ id: users.id }).from(users).where(eq(users.name, input.name))
  if (existing) throw badRequest(`A user named ${JSON.stringify(input.name)} already exists; choose another name`)
  const passwordHash = await hashPassword(input.password)
  const [claimed] = await ctx.db.orm.update(invitations).set({ usedAt: ctx.now() }).where(stillValid()).returning()
  if (!claimed) throw invitationNotValid()
  let user: UserRow
  try {
    user = await addUser(ctx, { name: input.name, admin: claimed.admin })
  } catch (error) {
    // The name went to someone else between the check and now: the invitation works again.
    await ctx.db.orm.update(invitations).set({ usedAt: null }).where(eq(invitations.id, claimed.id))
    throw error
  }
  // The invitation's address does not become the account's email: the admin chose it, and the address resets go to
  // opens the account. Whoever joins names their own (the accept route asks it to be confirmed by mail).
  const [made] = await ctx.db.orm
    .update(users)
    .set({ passwordHash, maxBytes: claimed.maxBytes, maxFiles: claimed.maxFiles })
    .where(eq(users.id, user.id))
    .returning()
  await ctx.db.orm.update(invitations).set({ usedBy: user.id }).where(eq(invitations.id, claimed.id))
  // A team owner's invitation: the new account is a member with the role it names (the team still exists: deleting
  // it deleted the invitation, which then no longer worked above).
  if (claimed.teamId !== null && isTeamRole(claimed.teamRole)) {
    await ctx.db.orm
      .insert(ctx.db.tables.teamMembers)
      .values({ teamId: claimed.teamId, userId: user.id, role: claimed.teamRole, createdAt: ctx.now() })
      .onConflictDoNothing()
  }
  return { user: made!, invitation: { ...claimed, usedBy: user.id } }
}
