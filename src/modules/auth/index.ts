import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context'
import { unauthorized } from '../../errors'
import { noteCaller } from '../../http/lifecycle'
import { applyRateLimit, loggedRateLimiter } from '../../http/rate-limit'
import { FailureSchema } from '../../http/schemas'
import { createAuthenticator } from './service'
import { findUserById, limitsOf, usageOf } from './users'

/**
 * The `auth: true` macro: resolves the caller from the bearer token before the handler runs. Routes with a
 * body use `parse: 'none'` and read it in the handler, so a request is authenticated before a single byte
 * of its body is read (contract §2). Also applies the rate limit, per user: all of a user's tokens share one
 * budget, so minting tokens buys no more requests.
 */
export function authPlugin(ctx: AppContext) {
  const limiter = loggedRateLimiter('per user on /api', ctx.config.rateLimitApi, ctx.log)
  const authenticate = createAuthenticator(ctx)
  return new Elysia().macro({
    auth: {
      async resolve({ request, set }) {
        const caller = await authenticate(request.headers.get('authorization'))
        if (!caller) throw unauthorized()
        noteCaller(request, caller.userName)
        applyRateLimit(limiter, caller.userId, ctx.now(), set.headers)
        return { caller }
      },
    },
  })
}

export type AuthPlugin = ReturnType<typeof authPlugin>

export const MeSchema = t.Object({
  success: t.Literal(true),
  data: t.Object({
    id: t.String(),
    name: t.String(),
    usage: t.Object({ files: t.Integer(), bytes: t.Integer() }),
    limits: t.Object({
      maxStorageBytes: t.Union([t.Integer(), t.Null()], { description: 'null = unlimited' }),
      maxFiles: t.Union([t.Integer(), t.Null()], { description: 'null = unlimited' }),
      maxFileSize: t.Integer({ description: 'Largest accepted PDF in bytes' }),
    }),
  }),
})

/** GET /api/me: who the token belongs to, what they use and what they may use. */
export function meRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ prefix: '/api' }).use(auth).get(
    '/me',
    async ({ caller }) => {
      const user = await findUserById(ctx, caller.userId)
      const usage = await usageOf(ctx, user.id)
      return {
        success: true as const,
        data: { id: user.id, name: user.name, usage, limits: { ...limitsOf(user), maxFileSize: ctx.config.maxFileSize } },
      }
    },
    {
      auth: true,
      response: { 200: MeSchema, 401: FailureSchema },
      detail: { summary: 'The authenticated user, their usage and limits', tags: ['account'] },
    },
  )
}
