import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { secretHash } from '../../lib/secret-hash'
import type { AppContext } from '../context'
import type { UserRow } from '../../db/tables'
import { badRequest, resetNotValid } from '../../errors'
import { randomId } from '../../lib/ids'
import { mailRow, requireMail } from '../mail/message'
import { mailWords, paragraphs } from '../i18n/mail-words'
import type { Language } from '../../shared/languages'
import { hashPassword } from '../passwords/argon2'
import { passwordProblem } from './password-rule'

/** How long a mailed reset link works. */
export const RESET_MINUTES = 30
/** Reset mails one address may be sent an hour (at most: PDFSHARE_RATE_LIMIT_LOGIN, when lower, and 0 turns it off). */
export const RESET_MAILS_PER_HOUR = 3

/**
 * "Forgot password": when a user with a password has this email (and is enabled), a link to choose a new password
 * is mailed (valid RESET_MINUTES, used once, only its hash kept), written with the mail in one batch. Whether or
 * not anyone has the address, the caller learns nothing: the answer is the same. The mail is in the account's
 * language, else the one the request `asked` for, else the instance's default.
 */
export async function requestPasswordReset(ctx: AppContext, input: { email: string; asked?: Language }): Promise<void> {
  requireMail(ctx)
  const { users, passwordResets, mailOutbox } = ctx.db.tables
  const email = input.email.trim().toLowerCase()
  const [user] = await ctx.db.orm.select().from(users).where(eq(users.email, email))
  await ctx.db.orm.delete(passwordResets).where(lt(passwordResets.expiresAt, ctx.now()))
  if (!user || user.passwordHash === null || user.disabledAt !== null) return
  const secret = randomId(16)
  const url = `${ctx.config.publicUrl}/app#/reset/${secret}`
  const t = mailWords(ctx.config.defaultLanguage, { account: user.language, asked: input.asked })
  const text = paragraphs(
    t('mail.reset.asked', { name: user.name, site: ctx.config.publicUrl }),
    t('mail.reset.link', { minutes: RESET_MINUTES, url }),
    t('mail.reset.ignore'),
  )
  await ctx.db.orm.batch([
    ctx.db.orm
      .insert(passwordResets)
      .values({ secretHash: secretHash(secret), userId: user.id, expiresAt: ctx.now() + RESET_MINUTES * 60_000, usedAt: null }),
    ctx.db.orm
      .insert(mailOutbox)
      .values(mailRow(ctx, { kind: 'password reset', to: email, subject: t('mail.reset.subject'), text, language: t.language })),
  ])
  ctx.jobs.wake('outbox')
}

/**
 * Sets the new password of a reset link, once; answers the user, whose other sign-ins the caller then ends. The
 * link is looked up before the password is hashed: a made-up secret costs a read, not an argon2 hash, so nobody
 * can fill the process's one password queue (and make everyone's sign-in a 503) with bogus links.
 */
export async function completePasswordReset(ctx: AppContext, input: { secret: string; password: string }): Promise<UserRow> {
  const problem = passwordProblem(input.password)
  if (problem) throw badRequest(problem)
  const { users, passwordResets } = ctx.db.tables
  const usable = () =>
    and(eq(passwordResets.secretHash, secretHash(input.secret)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, ctx.now()))
  const [valid] = await ctx.db.orm.select({ userId: passwordResets.userId }).from(passwordResets).where(usable())
  if (!valid) throw resetNotValid()
  const hash = await hashPassword(input.password)
  // Claimed only now, in one statement: of two requests with one link, one sets the password.
  const [used] = await ctx.db.orm
    .update(passwordResets)
    .set({ usedAt: ctx.now() })
    .where(usable())
    .returning({ userId: passwordResets.userId })
  if (!used) throw resetNotValid()
  const [user] = await ctx.db.orm.update(users).set({ passwordHash: hash }).where(eq(users.id, used.userId)).returning()
  if (!user) throw resetNotValid()
  return user
}
