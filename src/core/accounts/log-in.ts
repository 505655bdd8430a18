import { eq } from 'drizzle-orm'
import { ANONYMOUS, recordAudit } from '../audit/record'
import type { AppContext } from '../context'
import { accountDisabled, DomainError, invalidCredentials, secondFactorRequired } from '../../errors'
import { checkSecondFactor, twoFactorOn } from './two-factor'
import { passwordMatches } from '../passwords/argon2'
import { issueToken, type IssuedToken } from './tokens/issue-token'

/** The label of the tokens a password sign-in issues; the dashboard and `GET /api/tokens` show it. */
export const SESSION_LABEL = 'dashboard session'

/**
 * A password sign-in: the same refusal for an unknown user, a user without a password and a wrong password.
 * Success issues an ordinary token (revocable, listed with the others) that lives `config.sessionTtl`; at
 * the cap of active tokens it replaces the user's oldest session. Both outcomes go into the audit log, from
 * the client's `address`; a failure names the account only when the name is a user's (a name that is no
 * user's may be a password typed into the wrong field, so it is not kept). An account with two-factor sign-in
 * on also needs `code`: without one the right password is answered `second_factor_required`.
 */
export async function logIn(
  ctx: AppContext,
  input: { username: string; password: string; code?: string; address: string },
): Promise<IssuedToken & { user: { id: string; name: string } }> {
  const { users } = ctx.db.tables
  const [user] = await ctx.db.orm
    .select({
      id: users.id,
      name: users.name,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
      totpSecret: users.totpSecret,
      totpEnabledAt: users.totpEnabledAt,
      totpLastStep: users.totpLastStep,
    })
    .from(users)
    .where(eq(users.name, input.username))
  if (!(await passwordMatches(input.password, user?.passwordHash)) || !user) {
    await recordAudit(ctx, {
      action: 'sign_in.failed',
      actor: { via: 'api', userId: null, name: ANONYMOUS, address: input.address },
      userId: user?.id ?? null,
      detail: { method: 'password', name: user?.name ?? null },
    })
    throw invalidCredentials()
  }
  // Said only to whoever knows the password: to anyone else a disabled account is refused like any other.
  if (user.disabledAt !== null) throw accountDisabled()
  let method = 'password'
  if (twoFactorOn(user)) {
    // Asked for only once the password is right: the answer tells nothing to someone who does not know it.
    if (input.code === undefined) throw secondFactorRequired()
    try {
      method = `password and ${await checkSecondFactor(ctx, user, input.code)}`
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      await recordAudit(ctx, {
        action: 'sign_in.failed',
        actor: { via: 'api', userId: null, name: ANONYMOUS, address: input.address },
        userId: user.id,
        detail: { method: 'password and second factor', name: user.name, reason: 'wrong second factor' },
      })
      throw error
    }
  }
  return startSession(ctx, user, { address: input.address, method })
}

/**
 * A dashboard session for a user who proved who they are (`method`: how), recorded in the audit log. Its row keeps
 * when (`provedAt`): a session may change how its account signs in (core/accounts/reauthenticate.ts), an API token
 * never.
 */
export async function startSession(
  ctx: AppContext,
  user: { id: string; name: string },
  input: { address: string; method: string },
): Promise<IssuedToken & { user: { id: string; name: string } }> {
  const { users } = ctx.db.tables
  const issued = await issueToken(ctx, {
    userName: user.name,
    label: SESSION_LABEL,
    ttlSeconds: ctx.config.sessionTtl,
    replaceOldest: SESSION_LABEL,
    provedAt: ctx.now(),
  })
  await ctx.db.orm.update(users).set({ lastSignInAt: ctx.now() }).where(eq(users.id, user.id))
  await recordAudit(ctx, {
    action: 'sign_in.succeeded',
    actor: { via: 'api', userId: user.id, name: user.name, address: input.address },
    userId: user.id,
    detail: { method: input.method, tokenId: issued.token.id },
  })
  return { ...issued, user: { id: user.id, name: user.name } }
}
