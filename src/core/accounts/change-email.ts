import type { AppContext } from '../context'
import { accountEmail } from './email/address'
import { removeOwnEmail, requestEmailChange } from './email/change'
import { EMAIL_CHANGE_HOURS } from './email/mails'
import { requireMail } from '../mail/message'
import { rateLimited } from '../../errors'
import { loggedRateLimiter } from '../limits/logged-rate-limit'
import type { Language } from '../../shared/languages'

export type OwnEmailAnswer = { email: string | null; pendingEmail: string | null; message: string }

/**
 * PUT /api/me/email (docs/api.md, Password reset): null removes the address at once (and a pending one; the old
 * address is told); an
 * address waits for the link mailed to it (core/accounts/email/change.ts), with the same answer whether it is
 * free, another user's or the caller's own. Each request mails an address someone typed, so they are limited per
 * user and per address (at most 3 a minute each, like password-reset mails).
 */
export function ownEmail(ctx: AppContext) {
  const perMinute = Math.min(3, ctx.config.rateLimitLogin)
  const byUser = loggedRateLimiter(ctx, 'of email confirmations per user', perMinute)
  const byAddress = loggedRateLimiter(ctx, 'of email confirmations per address', perMinute)
  return async (input: { userId: string; email: string | null; asked?: Language }): Promise<OwnEmailAnswer> => {
    if (input.email === null) {
      await removeOwnEmail(ctx, { userId: input.userId, asked: input.asked })
      return { email: null, pendingEmail: null, message: 'Email removed: password resets are mailed nowhere' }
    }
    requireMail(ctx)
    const email = accountEmail(input.email, 'email')
    const now = ctx.now()
    for (const [limiter, key] of [
      [byUser, input.userId],
      [byAddress, email],
    ] as const) {
      const decision = await limiter.hit(key, now)
      if (decision && !decision.allowed) throw rateLimited(decision)
    }
    const asked = await requestEmailChange(ctx, { userId: input.userId, email, asked: input.asked })
    return {
      ...asked,
      message: `A link to confirm ${asked.pendingEmail} was mailed to it; the address is used once the link is opened (within ${EMAIL_CHANGE_HOURS} hours).`,
    }
  }
}
