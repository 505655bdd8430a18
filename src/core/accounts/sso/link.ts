import { and, eq, gt, isNull, notInArray, or, sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { conflict, ssoLinkNotAsked, userIdNotFound } from '../../../errors'
import { accountEmail } from '../email/address'

/**
 * Linking an existing user to single sign-on (docs/sign-in.md, Who gets in): an admin names the verified email
 * whose first sign-in is to open the account. An admin must not be able to give themselves (or anyone) a way into
 * an account in use, so the link applies to such an account only once its owner allowed it; an account nobody
 * uses yet and that holds nothing links at once (an admin preparing accounts for people who arrive by single
 * sign-on). Which of the two an account is, is decided when the sign-in links it, not when the admin asked.
 */

/**
 * The condition "nobody uses this account yet and it holds nothing": no password, passkey, single sign-on
 * identity or working token, and no file. Subqueries without correlation, the same SQL for both databases.
 */
function unused(ctx: AppContext) {
  const { users, passkeys, ssoIdentities, tokens, files } = ctx.db.tables
  const now = ctx.now()
  const liveTokens = ctx.db.orm
    .select({ userId: tokens.userId })
    .from(tokens)
    .where(and(isNull(tokens.revokedAt), or(isNull(tokens.expiresAt), gt(tokens.expiresAt, now))))
  return and(
    isNull(users.passwordHash),
    notInArray(users.id, ctx.db.orm.select({ userId: passkeys.userId }).from(passkeys)),
    notInArray(users.id, ctx.db.orm.select({ userId: ssoIdentities.userId }).from(ssoIdentities)),
    notInArray(users.id, liveTokens),
    notInArray(users.id, ctx.db.orm.select({ ownerId: files.ownerId }).from(files)),
  )
}

/** An admin's request (null withdraws it). Any new request waits for the owner again, whatever they allowed before. */
export async function askSsoLink(ctx: AppContext, input: { userId: string; email: string | null }): Promise<void> {
  const { users } = ctx.db.tables
  const email = input.email === null ? null : accountEmail(input.email, 'ssoEmail')
  // At most one user waits for an email: the UPDATE that links takes one row.
  const free =
    email === null
      ? undefined
      : sql`NOT EXISTS (SELECT 1 FROM ${users} AS other WHERE other.sso_link_email = ${email} AND other.id <> ${input.userId})`
  const [changed] = await ctx.db.orm
    .update(users)
    .set({ ssoLinkEmail: email, ssoLinkAllowed: false })
    .where(and(eq(users.id, input.userId), free))
    .returning({ id: users.id })
  if (changed) return
  const [exists] = await ctx.db.orm.select({ id: users.id }).from(users).where(eq(users.id, input.userId))
  throw exists ? conflict('Another user is already waiting to be linked to this email') : userIdNotFound()
}

/** The owner allows the link an admin asked for; `email` must be the one asked (it may have changed since they looked). */
export async function allowSsoLink(ctx: AppContext, input: { userId: string; email: string }): Promise<void> {
  const { users } = ctx.db.tables
  const [allowed] = await ctx.db.orm
    .update(users)
    .set({ ssoLinkAllowed: true })
    .where(and(eq(users.id, input.userId), eq(users.ssoLinkEmail, input.email.trim().toLowerCase())))
    .returning({ id: users.id })
  if (!allowed) throw ssoLinkNotAsked()
}

/** The owner refuses (or withdraws what they allowed): the request is gone. Answers the email it was for, if any. */
export async function refuseSsoLink(ctx: AppContext, input: { userId: string }): Promise<string | null> {
  const { users } = ctx.db.tables
  const [before] = await ctx.db.orm.select({ email: users.ssoLinkEmail }).from(users).where(eq(users.id, input.userId))
  if (!before) throw userIdNotFound()
  await ctx.db.orm.update(users).set({ ssoLinkEmail: null, ssoLinkAllowed: false }).where(eq(users.id, input.userId))
  return before.email
}

/**
 * A verified email's first single sign-on: the user an admin asked to link to it, taken once (one UPDATE), when
 * its owner allowed it or it is unused; 'waiting' when a link was asked for an account in use that its owner has
 * not allowed (the sign-in is refused: the provider account must not become that user, nor a new one instead).
 */
export async function claimSsoLink(ctx: AppContext, email: string): Promise<UserRow | 'waiting' | undefined> {
  const { users } = ctx.db.tables
  const [linked] = await ctx.db.orm
    .update(users)
    .set({ ssoLinkEmail: null, ssoLinkAllowed: false })
    .where(and(eq(users.ssoLinkEmail, email), or(eq(users.ssoLinkAllowed, true), unused(ctx))))
    .returning()
  if (linked) return linked
  const [waiting] = await ctx.db.orm.select({ id: users.id }).from(users).where(eq(users.ssoLinkEmail, email))
  return waiting ? 'waiting' : undefined
}
