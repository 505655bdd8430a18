import { Elysia } from 'elysia'
import { createAuthenticator } from '../core/accounts/authenticate'
import type { AppContext } from '../core/context'
import { unauthorized } from '../errors'
import { noteCaller } from './lifecycle'
import { applyRateLimit, loggedRateLimiter } from './rate-limit'

/**
 * The `auth: true` macro every feature's routes may use: resolves the caller from the bearer token before
 * the handler runs. Routes with a body use `parse: 'none'` and read it in the handler, so a request is
 * authenticated before a single byte of its body is read: an anonymous client cannot make the server
 * receive (and store in a temp file) a 100 MB upload. Also applies the rate limit, per user: all of a user's
 * tokens share one budget, so minting tokens buys no more requests.
 *
 * It lives here, at the HTTP edge below the modules, so that a feature module needs no other module to
 * know who is calling (modules never import each other).
 */
export function authGuard(ctx: AppContext) {
  const limiter = loggedRateLimiter(ctx, 'per user on /api', ctx.config.rateLimitApi)
  const authenticate = createAuthenticator(ctx)
  return new Elysia({ name: 'auth-guard' }).macro({
    auth: {
      async resolve({ request, set }) {
        const caller = await authenticate(request.headers.get('authorization'))
        if (!caller) throw unauthorized()
        noteCaller(request, caller.userName)
        await applyRateLimit(limiter, caller.userId, ctx.now(), set.headers)
        return { caller }
      },
    },
  })
}

export type AuthGuard = ReturnType<typeof authGuard>
