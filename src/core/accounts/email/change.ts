import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { emailChangeNotValid, userIdNotFound } from '../../../errors'
import { isConstraintFailure } from '../../../lib/error-codes'
import { randomId } from '../../../lib/ids'
import { secretHash } from '../../../lib/secret-hash'
import { mailRow, queueNotice, requireMail } from '../../mail/message'
import { accountEmail } from './address'
import { mailWords } from '../../i18n/mail-words'
import type { Language } from '../../../shared/languages'
import { addressTakenMail, confirmationMail, EMAIL_CHANGE_HOURS, emailChangedMail, emailRemovedMail } from './mails'

/**
 * A user's own new email (docs/api.md, Password reset). The address a reset is mailed to opens the account, so it
 * counts only once its mailbox confirmed it: asking stores it as pending and mails a link (valid
 * EMAIL_CHANGE_HOURS, used once, only its SHA-256 kept) that makes it the account's email. The asker learns the
 * same whether the address is free, another user's or their own: another user's address gets a note without a
 * link (its owner learns someone tried), and a pending row all the same, so nothing that the asker can read
 * differs. Asking again replaces the pending address. Each mail is in its recipient's language (docs/languages.md,
 * Mails): the confirmation in the asker's (their account's, else the one the request `asked` for), the note in the
 * other account's.
 */
export async function requestEmailChange(
  ctx: AppContext,
  input: { userId: string; email: string; asked?: Language },
): Promise<{ email: string | null; pendingEmail: string }> {
  requireMail(ctx)
  const email = accountEmail(input.email, 'email')
  const { users, emailChanges, mailOutbox } = ctx.db.tables
  const now = ctx.now()
  await ctx.db.orm.delete(emailChanges).where(lt(emailChanges.expiresAt, now))
  const [user] = await ctx.db.orm.select().from(users).where(eq(users.id, input.userId))
  if (!user) throw userIdNotFound()
  const [owner] = await ctx.db.orm.select({ id: users.id, language: users.language }).from(users).where(eq(users.email, email))
  const secret = randomId(16)
  const fallback = ctx.config.defaultLanguage
  const mail =
    owner && owner.id !== user.id
      ? addressTakenMail(ctx, mailWords(fallback, { account: owner.language }), { userName: user.name, email })
      : confirmationMail(ctx, mailWords(fallback, { account: user.language, asked: input.asked }), { userName: user.name, email, secret })
  await ctx.db.orm.batch([
    ctx.db.orm.delete(emailChanges).where(eq(emailChanges.userId, user.id)),
    ctx.db.orm
      .insert(emailChanges)
      .values({ secretHash: secretHash(secret), userId: user.id, email, expiresAt: now + EMAIL_CHANGE_HOURS * 3_600_000 }),
    ctx.db.orm.insert(mailOutbox).values(mailRow(ctx, mail)),
  ])
  ctx.jobs.wake('outbox')
  return { email: user.email, pendingEmail: email }
}

/**
 * The mailed link: its address becomes the account's email, once, and the previous address is told. A link that
 * was used, replaced or expired fails, and so does one whose address another account took meanwhile (the
 * database's unique key decides a race): all with the same 404.
 */
export async function confirmEmailChange(
  ctx: AppContext,
  input: { secret: string; asked?: Language },
): Promise<{ user: UserRow; previous: string | null }> {
  const { users, emailChanges } = ctx.db.tables
  const [change] = await ctx.db.orm
    .delete(emailChanges)
    .where(and(eq(emailChanges.secretHash, secretHash(input.secret)), gt(emailChanges.expiresAt, ctx.now())))
    .returning()
  if (!change) throw emailChangeNotValid()
  const [before] = await ctx.db.orm.select().from(users).where(eq(users.id, change.userId))
  if (!before) throw emailChangeNotValid()
  const free = sql`NOT EXISTS (SELECT 1 FROM ${users} AS other WHERE other.email = ${change.email} AND other.id <> ${change.userId})`
  const after = await ctx.db.orm
    .update(users)
    .set({ email: change.email })
    .where(and(eq(users.id, change.userId), free))
    .returning()
    .then(([row]) => row)
    .catch((error: unknown) => {
      if (isConstraintFailure(error)) return undefined
      throw error
    })
  if (!after) throw emailChangeNotValid()
  if (before.email !== null && before.email !== after.email) {
    const t = mailWords(ctx.config.defaultLanguage, { account: after.language, asked: input.asked })
    await queueNotice(ctx, emailChangedMail(ctx, t, { userName: after.name, previous: before.email, email: change.email }))
  }
  return { user: after, previous: before.email }
}

/** Removes a user's email (by the user, or an admin): resets are mailed nowhere. `withPending`: a pending new one goes too. */
export async function removeEmail(ctx: AppContext, input: { userId: string; withPending: boolean }): Promise<UserRow> {
  const { users, emailChanges } = ctx.db.tables
  const [user] = await ctx.db.orm.update(users).set({ email: null }).where(eq(users.id, input.userId)).returning()
  if (!user) throw userIdNotFound()
  if (input.withPending) await ctx.db.orm.delete(emailChanges).where(eq(emailChanges.userId, input.userId))
  return user
}

/** The owner removes their email (and a pending one); the address it had is told, as when it changes. */
export async function removeOwnEmail(ctx: AppContext, input: { userId: string; asked?: Language }): Promise<UserRow> {
  const { users } = ctx.db.tables
  const [before] = await ctx.db.orm.select({ email: users.email }).from(users).where(eq(users.id, input.userId))
  const user = await removeEmail(ctx, { userId: input.userId, withPending: true })
  if (before?.email) {
    const t = mailWords(ctx.config.defaultLanguage, { account: user.language, asked: input.asked })
    await queueNotice(ctx, emailRemovedMail(ctx, t, { userName: user.name, previous: before.email }))
  }
  return user
}

/** The address a user asked for and has not confirmed yet (null: none, or it expired). */
export async function pendingEmailOf(ctx: AppContext, userId: string): Promise<string | null> {
  const { emailChanges } = ctx.db.tables
  const [pending] = await ctx.db.orm
    .select({ email: emailChanges.email })
    .from(emailChanges)
    .where(and(eq(emailChanges.userId, userId), gt(emailChanges.expiresAt, ctx.now())))
    .limit(1)
  return pending?.email ?? null
}
