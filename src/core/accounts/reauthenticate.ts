import { eq } from 'drizzle-orm'
import type { UserRow } from '../../db/tables'
import {
  apiTokenMayNotChangeCredentials,
  currentPasswordRequired,
  recentSignInRequired,
  unauthorized,
  wrongCurrentPassword,
} from '../../errors'
import type { AppContext } from '../context'
import { passwordMatches } from '../passwords/argon2'

declare const proven: unique symbol

/**
 * The owner of an account, proven just now: what every change of how the account signs in takes (passkeys,
 * two-factor sign-in, the reset email). Only `reauthenticate` makes one, so no such change can run on a caller's
 * word alone.
 */
export type Reauthenticated = { readonly user: UserRow; readonly [proven]: true }

/**
 * Whether the caller may change how its account signs in (docs/sign-in.md, Changing how you sign in):
 * - only a sign-in's session (password, passkey, single sign-on, proxy, reset): an API token never may, whatever
 *   its scopes, or a token with only `account` would be a way to every scope (a passkey of its own, a reset email
 *   of its own, a second factor that locks the owner out);
 * - an account with a password sends it again (`password`), however old the session: a stolen session alone
 *   changes nothing;
 * - an account without one (single sign-on, passkeys, the proxy) needs a session whose sign-in was within
 *   PDFSHARE_RECENT_SIGN_IN, there being nothing else to ask for.
 */
export async function reauthenticate(
  ctx: AppContext,
  input: { caller: { userId: string; provedAt: number | null }; password: string | undefined },
): Promise<Reauthenticated> {
  const { caller } = input
  if (caller.provedAt === null) throw apiTokenMayNotChangeCredentials()
  const { users } = ctx.db.tables
  const [user] = await ctx.db.orm.select().from(users).where(eq(users.id, caller.userId))
  if (!user) throw unauthorized() // removed since its token was checked
  if (user.passwordHash !== null) {
    if (input.password === undefined) throw currentPasswordRequired()
    if (!(await passwordMatches(input.password, user.passwordHash))) throw wrongCurrentPassword()
  } else if (ctx.now() - caller.provedAt > ctx.config.recentSignIn * 1000) {
    throw recentSignInRequired(Math.round(ctx.config.recentSignIn / 60))
  }
  return { user } as Reauthenticated
}
