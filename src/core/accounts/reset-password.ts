import { and, eq, isNull } from 'drizzle-orm'
import type { AppContext } from '../context'
import { completePasswordReset } from './password-reset'
import { twoFactorOn } from './two-factor'
import type { UserRow } from '../../db/tables'
import { startSession, SESSION_LABEL } from './log-in'

/**
 * A new password from a mailed reset link: the user's other dashboard sessions end (whoever knew the old password
 * is signed out; API tokens stay, as with `user passwd`), and this browser is signed in, unless two-factor sign-in
 * is on: the link proves the mailbox, which stands in for the password only, so the session then comes from a
 * sign-in with the new password and the second factor (`session: null`).
 */
export async function resetPassword(
  ctx: AppContext,
  input: { secret: string; password: string; address: string },
): Promise<{ user: UserRow; session: Awaited<ReturnType<typeof startSession>> | null }> {
  const user = await completePasswordReset(ctx, input)
  const { tokens } = ctx.db.tables
  await ctx.db.orm
    .update(tokens)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(tokens.userId, user.id), eq(tokens.label, SESSION_LABEL), isNull(tokens.revokedAt)))
  if (twoFactorOn(user)) return { user, session: null }
  return { user, session: await startSession(ctx, user, { address: input.address, method: 'password reset' }) }
}
