import { and, eq, isNull } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { completePasswordReset } from '../../../core/accounts/password-reset'
import { startSession, SESSION_LABEL } from './log-in'

/**
 * A new password from a mailed reset link: the user's other dashboard sessions end (whoever knew the old password
 * is signed out; API tokens stay, as with `user passwd`), and this browser is signed in.
 */
export async function resetPassword(ctx: AppContext, input: { secret: string; password: string; address: string }) {
  const user = await completePasswordReset(ctx, input)
  const { tokens } = ctx.db.tables
  await ctx.db.orm
    .update(tokens)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(tokens.userId, user.id), eq(tokens.label, SESSION_LABEL), isNull(tokens.revokedAt)))
  return { user, session: await startSession(ctx, user, { address: input.address, method: 'password reset' }) }
}
