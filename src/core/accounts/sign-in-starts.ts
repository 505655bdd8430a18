import { signInOptions } from './passkeys'
import type { AppContext } from '../context'
import { rateLimited } from '../../errors'
import { loggedRateLimiter } from '../limits/logged-rate-limit'

/**
 * What anyone may do before signing in that writes a row: ask for a passkey prompt (a challenge, kept 5 minutes)
 * and come back from the single sign-on provider (an audit entry when it fails). Without a limit a client
 * calling them in a loop fills the challenges and the audit log (kept for PDFSHARE_AUDIT_RETENTION days).
 *
 * Each is limited per client address (an IPv6 /64 is one) to `PDFSHARE_RATE_LIMIT_LOGIN` a minute, like failed
 * sign-ins, and like them only what leads nowhere counts: a sign-in that gets in gives its prompt or its return
 * back, so many people signing in from behind one office address are not refused. Of the returns from the
 * provider with no sign-in started in that browser (a bookmarked or replayed callback, a scanner), at most one a
 * minute per client is written to the audit log.
 */
export function signInStarts(ctx: AppContext) {
  const perMinute = ctx.config.rateLimitLogin
  const prompts = loggedRateLimiter(ctx, 'of passkey prompts per address', perMinute)
  const returns = loggedRateLimiter(ctx, 'of single sign-on returns per address', perMinute)
  const unstarted = loggedRateLimiter(ctx, 'of audit entries of callbacks with no sign-in started per address', 1)
  return {
    /** POST /api/auth/passkey/options: the prompt's options and its challenge, or 429 when `client` is over its budget. */
    async passkeyPrompt(client: string) {
      const decision = await prompts.hit(client, ctx.now())
      if (decision && !decision.allowed) throw rateLimited(decision)
      return signInOptions(ctx)
    },

    /** A passkey sign-in of `client` that got in: its prompt is given back. */
    passkeySignedIn: (client: string) => prompts.undo(client, ctx.now()),

    /**
     * GET /auth/oidc/callback: counts the return of `client`; `retryAfterSeconds` when it is over its budget, else
     * `signedIn`, to call when the sign-in got in.
     */
    async ssoReturn(client: string): Promise<{ retryAfterSeconds: number } | { signedIn: () => Promise<void> }> {
      const at = ctx.now()
      const decision = await returns.hit(client, at)
      if (decision && !decision.allowed) return { retryAfterSeconds: decision.resetSeconds }
      return { signedIn: () => returns.undo(client, at) }
    },

    /** Whether a callback of `client` with no sign-in started goes into the audit log: its first this minute. */
    async noteUnstarted(client: string): Promise<boolean> {
      const decision = await unstarted.hit(client, ctx.now())
      return decision?.allowed !== false
    },
  }
}

export type SignInStarts = ReturnType<typeof signInStarts>
