import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { DomainError } from '../../../errors'
import { addUser } from '../users/add-user'
import { setUserState } from '../users/set-user-state'
import { claimSsoLink } from './link'
import type { SsoClaims } from './provider'
import { followTeamGroups, type GroupChange } from '../../teams/sso-groups'

/** Why a single sign-on that the provider vouched for still does not get in; each is said plainly on the page. */
export type SsoRefusal = 'disabled' | 'unverified' | 'not_allowed' | 'not_one_address' | 'link_waiting'

export type SsoOutcome =
  | { user: UserRow; created: boolean; linked: boolean; adminChanged: boolean | undefined; teamChanges: GroupChange[] }
  | { refused: SsoRefusal; email: string | undefined }

const NAME_LETTERS = /[^A-Za-z0-9._-]/g
/** One `@`, with something other than spaces on each side: the address's domain is then all that follows it. */
const ONE_ADDRESS = /^[^@\s]+@[^@\s]+$/

/** A user name from the provider's preferred name or the email's local part, made free with -2, -3… */
async function freeName(ctx: AppContext, claims: SsoClaims): Promise<UserRow> {
  const wanted = (claims.preferredName ?? claims.email?.split('@')[0] ?? 'user').replace(NAME_LETTERS, '').replace(/^[._-]+/, '')
  const base = (wanted || 'user').slice(0, 56)
  for (let n = 1; ; n++) {
    try {
      return await addUser(ctx, { name: n === 1 ? base : `${base}-${n}` })
    } catch (error) {
      if (!(error instanceof DomainError) || n >= 100) throw error // taken: try the next; 100 taken is a broken install
    }
  }
}

/**
 * Who a verified single sign-on is (docs/sign-in.md, Who gets in):
 * 1. the user bound to the provider's (issuer, subject), always the same one, whatever the email says now;
 * 2. else, with a verified email, the user an admin asked to link to that email (`ssoLinkEmail`), once, if its
 *    owner allowed it or nobody uses it yet (sso/link.ts); while such a link waits for its owner, the sign-in is refused;
 * 3. else, with a verified email of a domain in PDFSHARE_OIDC_ALLOWED_DOMAINS, a new user.
 * Anyone else is refused, and so is an "email" with two `@` (`eve@evil.org@example.com`), which a provider may
 * let its users type: which of its parts is the domain depends on who reads it. An unverified email never links or creates: it may be anyone's. With
 * PDFSHARE_OIDC_ADMIN_GROUP, membership of that group decides the admin role at each sign-in (never leaving the
 * server without an enabled admin). With PDFSHARE_OIDC_TEAM_GROUPS, the groups decide the memberships they map to
 * (core/teams/sso-groups.ts).
 */
export async function ssoSignIn(ctx: AppContext, claims: SsoClaims): Promise<SsoOutcome> {
  const { users, ssoIdentities } = ctx.db.tables
  const [bound] = await ctx.db.orm
    .select({ user: users })
    .from(ssoIdentities)
    .innerJoin(users, eq(users.id, ssoIdentities.userId))
    .where(and(eq(ssoIdentities.issuer, claims.issuer), eq(ssoIdentities.subject, claims.subject)))
  let user = bound?.user
  let created = false
  let linked = false
  if (!user) {
    if (!claims.email || !claims.emailVerified) return { refused: 'unverified', email: claims.email }
    if (!ONE_ADDRESS.test(claims.email)) return { refused: 'not_one_address', email: claims.email }
    const allowed = await claimSsoLink(ctx, claims.email)
    const domain = claims.email.slice(claims.email.indexOf('@') + 1)
    if (allowed === 'waiting') return { refused: 'link_waiting', email: claims.email }
    if (allowed) {
      user = allowed
      linked = true
    } else if (ctx.config.oidcAllowedDomains.includes(domain)) {
      user = await freeName(ctx, claims)
      created = true
    } else {
      return { refused: 'not_allowed', email: claims.email }
    }
    await ctx.db.orm
      .insert(ssoIdentities)
      .values({ issuer: claims.issuer, subject: claims.subject, userId: user.id, email: claims.email, createdAt: ctx.now() })
      .onConflictDoNothing()
  }
  if (user.disabledAt !== null) return { refused: 'disabled', email: claims.email }
  const adminChanged = await followAdminGroup(ctx, user, claims.groups)
  if (adminChanged !== undefined) user = { ...user, isAdmin: adminChanged }
  // The teams follow the groups only when the provider sent them: a missing claim says nothing about membership.
  const teamChanges = claims.groupsSent ? await followTeamGroups(ctx, user.id, claims.groups) : []
  return { user, created, linked, adminChanged, teamChanges }
}

/** The admin role from PDFSHARE_OIDC_ADMIN_GROUP; the new role when it changed, else undefined. */
async function followAdminGroup(ctx: AppContext, user: UserRow, groups: string[]): Promise<boolean | undefined> {
  const group = ctx.config.oidcAdminGroup
  if (group === undefined) return undefined
  const member = groups.includes(group)
  if (member === user.isAdmin) return undefined
  try {
    await setUserState(ctx, { id: user.id, admin: member })
    return member
  } catch (error) {
    if (error instanceof DomainError && error.code === 'conflict') return undefined // the last enabled admin stays one
    throw error
  }
}
