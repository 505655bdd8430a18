import { randomInt } from 'node:crypto'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { secretHash } from '../../lib/secret-hash'
import type { AppContext } from '../context'
import { badRequest, conflict, wrongSecondFactor } from '../../errors'
import type { Reauthenticated } from './reauthenticate'

/**
 * Two-factor sign-in (docs/api.md, Two-factor sign-in): a TOTP app (RFC 6238: SHA-1, 6 digits, 30 s, the usual
 * settings every authenticator app reads from the QR code) and ten one-time recovery codes. It guards the password
 * sign-in only: API tokens are credentials of their own and keep working. The owner's changes take a
 * `Reauthenticated` owner (a session and the password: reauthenticate.ts); an admin's reset does not.
 */

export const RECOVERY_CODE_COUNT = 10
const STEP_MS = 30_000
/** Codes of the step before and after are accepted too: a phone's clock may be off by up to 30 s. */
const WINDOW = 1
// No 0/o, 1/l/i: a code read off paper is typed without guessing. 16 of 31 letters: 79 bits.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

const totpFor = (secret: string, name: string) =>
  new TOTP({ issuer: 'pdfshare', label: name, algorithm: 'SHA1', digits: 6, period: STEP_MS / 1000, secret: Secret.fromBase32(secret) })

/** What a user's row says of two-factor sign-in. */
export type TwoFactorState = { totpSecret: string | null; totpEnabledAt: number | null; totpLastStep: number | null }
export const twoFactorOn = (user: TwoFactorState) => user.totpEnabledAt !== null

/** `abcd-efgh-jkmn-pqrs`: what the user is shown; spaces, dashes and case are ignored when one is typed. */
function newRecoveryCode(): string {
  const letters = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)])
  return [0, 4, 8, 12].map((at) => letters.slice(at, at + 4).join('')).join('-')
}
const normalized = (code: string) => code.replace(/[\s-]/g, '').toLowerCase()

/** The 30-second step the code belongs to (this one, or one either side), or undefined. */
function stepOf(ctx: AppContext, secret: string, name: string, code: string): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined
  const now = ctx.now()
  const delta = totpFor(secret, name).validate({ token: code, timestamp: now, window: WINDOW })
  return delta === null ? undefined : Math.floor(now / STEP_MS) + delta
}

/**
 * Starts setting up two-factor sign-in: a new 160-bit secret, kept pending (sign-in does not ask for codes yet)
 * until `confirmTwoFactor` gets a code made with it. Starting again replaces a pending secret.
 */
export async function startTwoFactor(ctx: AppContext, owner: Reauthenticated): Promise<{ secret: string; uri: string }> {
  const userId = owner.user.id
  const { users } = ctx.db.tables
  const secret = new Secret({ size: 20 }).base32
  const [user] = await ctx.db.orm
    .update(users)
    .set({ totpSecret: secret, totpLastStep: null })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt), sql`${users.passwordHash} IS NOT NULL`))
    .returning({ name: users.name })
  if (!user) {
    const [existing] = await ctx.db.orm.select().from(users).where(eq(users.id, userId))
    if (existing && twoFactorOn(existing)) throw conflict('Two-factor sign-in is already on; turn it off first to set up a new app')
    throw badRequest('Two-factor sign-in guards a password sign-in, and this account has no password (pdfshare user passwd)')
  }
  return { secret, uri: totpFor(secret, user.name).toString() }
}

/**
 * Turns two-factor sign-in on with a code from the app just set up, and answers its recovery codes (shown once:
 * only their hashes are kept).
 */
export async function confirmTwoFactor(ctx: AppContext, input: { owner: Reauthenticated; code: string }): Promise<string[]> {
  const { users, recoveryCodes } = ctx.db.tables
  const [user] = await ctx.db.orm.select().from(users).where(eq(users.id, input.owner.user.id))
  if (!user?.totpSecret || twoFactorOn(user)) throw conflict('There is no two-factor setup to confirm; start one first')
  const step = stepOf(ctx, user.totpSecret, user.name, input.code.trim())
  if (step === undefined) {
    throw badRequest('That code is not the one the app shows now; check that the phone’s clock is right and type the current code')
  }
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  const [confirmed] = await ctx.db.orm.batch([
    ctx.db.orm
      .update(users)
      .set({ totpEnabledAt: ctx.now(), totpLastStep: step })
      .where(and(eq(users.id, user.id), eq(users.totpSecret, user.totpSecret), isNull(users.totpEnabledAt)))
      .returning({ id: users.id }),
    ctx.db.orm.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    ctx.db.orm
      .insert(recoveryCodes)
      .values(codes.map((code) => ({ userId: user.id, codeHash: secretHash(normalized(code)), usedAt: null }))),
  ])
  if (confirmed.length === 0) return confirmTwoFactor(ctx, input) // set up again meanwhile: the next read says how
  return codes
}

/** New recovery codes in place of the old ones (used or not), for a user with two-factor sign-in on. */
export async function renewRecoveryCodes(ctx: AppContext, owner: Reauthenticated): Promise<string[]> {
  const { users, recoveryCodes } = ctx.db.tables
  const [user] = await ctx.db.orm.select().from(users).where(eq(users.id, owner.user.id))
  if (!user || !twoFactorOn(user)) throw conflict('Two-factor sign-in is off: there are no recovery codes to renew')
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await ctx.db.orm.batch([
    ctx.db.orm.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    ctx.db.orm
      .insert(recoveryCodes)
      .values(codes.map((code) => ({ userId: user.id, codeHash: secretHash(normalized(code)), usedAt: null }))),
  ])
  return codes
}

/** Turns two-factor sign-in off (the password proved it is the owner, not someone with a stolen session). */
export async function turnOffTwoFactor(ctx: AppContext, owner: Reauthenticated): Promise<void> {
  await resetTwoFactor(ctx, owner.user.id)
}

/** Clears a user's two-factor sign-in (the owner turning it off, an admin or `pdfshare user 2fa reset`). */
export async function resetTwoFactor(ctx: AppContext, userId: string): Promise<boolean> {
  const { users, recoveryCodes } = ctx.db.tables
  const [updated] = await ctx.db.orm.batch([
    ctx.db.orm
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
      .where(eq(users.id, userId))
      .returning({ wasOn: users.id }),
    ctx.db.orm.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
  ])
  return updated.length > 0
}

/** How many unused recovery codes a user has. */
export async function recoveryCodesLeft(ctx: AppContext, userId: string): Promise<number> {
  const { recoveryCodes } = ctx.db.tables
  const rows = await ctx.db.orm
    .select({ codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
  return rows.length
}

/**
 * The second step of a sign-in: a current TOTP code not accepted before (its step is later than the last one
 * accepted, decided in the UPDATE, so one code cannot sign in twice even at once), or an unused recovery code,
 * used up in the same statement. Throws `wrongSecondFactor` otherwise.
 */
export async function checkSecondFactor(
  ctx: AppContext,
  user: TwoFactorState & { id: string; name: string },
  code: string,
): Promise<'totp' | 'recovery code'> {
  const { users, recoveryCodes } = ctx.db.tables
  const typed = code.trim()
  const step = user.totpSecret ? stepOf(ctx, user.totpSecret, user.name, typed) : undefined
  if (step !== undefined) {
    const [accepted] = await ctx.db.orm
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id })
    if (accepted) return 'totp'
    throw wrongSecondFactor('That code was used already; wait for the next one')
  }
  const [used] = await ctx.db.orm
    .update(recoveryCodes)
    .set({ usedAt: ctx.now() })
    .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, secretHash(normalized(typed))), isNull(recoveryCodes.usedAt)))
    .returning({ userId: recoveryCodes.userId })
  if (used) return 'recovery code'
  throw wrongSecondFactor('Wrong code: type the 6 digits your authenticator app shows now, or an unused recovery code')
}
