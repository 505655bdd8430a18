import type { Server } from 'bun'
import { Elysia, type TSchema } from 'elysia'
import { type Caller, createAuthenticator } from '../core/accounts/authenticate'
import type { Scope } from '../core/accounts/scopes'
import type { AppContext } from '../core/context'
import { insufficientScope, unauthorized } from '../errors'
import { auditFor } from './audit'
import type { RequestNotes } from './lifecycle'
import { applyRateLimit, loggedRateLimiter } from '../core/limits/logged-rate-limit'
import { readJsonObject } from './read-json-body'

/**
 * The `auth` macro every feature's routes use: `auth: 'files:read'` resolves the caller from the bearer token
 * before the handler runs and refuses a token without that scope (403 insufficient_scope); `auth: true` takes
 * any valid token (/api/me, sign-out). The scope also goes into the route's OpenAPI security requirement. The
 * handler gets `caller`, and `audit`, which writes an audit-log entry with the caller as its actor.
 *
 * A body is never read before its sender is known and may send it: a route with a JSON body authenticates in
 * its parser (jsonBody), before Elysia parses or checks the body, and an upload route reads its own body
 * (`parse: 'none'`) in the handler; so an anonymous client cannot make the server receive (and store in a temp
 * file) a 100 MB upload, and its request is a 401 whatever its body holds. Also applies the rate limit, per
 * user: all of a user's tokens share one budget, so minting tokens buys no more requests.
 *
 * It lives here, at the HTTP edge below the modules, so that a feature module needs no other module to
 * know who is calling (modules never import each other).
 */
export function authGuard(ctx: AppContext, notes: RequestNotes) {
  const limiter = loggedRateLimiter(ctx, 'per user on /api', ctx.config.rateLimitApi)
  const authenticate = createAuthenticator(ctx)
  // One authentication (and one rate-limit charge) per request, whether the parser or the macro asks first.
  const callers = new WeakMap<Request, Promise<Caller>>()
  const callerOf: CallerOf = (request, headers) => {
    let caller = callers.get(request)
    if (!caller) {
      caller = (async () => {
        const found = await authenticate(request.headers.get('authorization'))
        if (!found) throw unauthorized()
        notes.caller(request, found.userName)
        await applyRateLimit(limiter, found.userId, ctx.now(), headers)
        return found
      })()
      callers.set(request, caller)
    }
    return caller
  }
  return new Elysia({ name: 'auth-guard' }).decorate('callerOf', callerOf).macro({
    auth: (need: Scope | true) => ({
      detail: { security: [{ bearer: need === true ? [] : [need] }] },
      async resolve({
        request,
        set,
        server,
      }: {
        request: Request
        set: { headers: Record<string, unknown> }
        server: Server<unknown> | null
      }) {
        const caller = mayDo(await callerOf(request, set.headers), need)
        return { caller, audit: auditFor(ctx, request, server, caller) }
      },
    }),
  })
}

export type AuthGuard = ReturnType<typeof authGuard>

type CallerOf = (request: Request, headers: Record<string, unknown>) => Promise<Caller>
type ParserContext = { request: Request; set: { headers: Record<string, unknown> }; callerOf: CallerOf }

/** The caller, when its token holds `need`; else the 403 that names the scope. */
function mayDo(caller: Caller, need: Scope | true): Caller {
  if (need !== true && !caller.scopes.has(need)) throw insufficientScope(need)
  return caller
}

/**
 * `parse` for a JSON route, beside its `body: schema` (which Elysia then checks and Eden types): the body, read
 * by readJsonObject, once its sender is known and holds `from`, the scope of the route's `auth` (or from anyone,
 * on a public route). It answers every request, with the body or an error (401, 403, 415, 413, 400), so the
 * 'json' named after it never runs: it is there because the OpenAPI document takes a body's media type from the
 * names of a route's parsers.
 */
export function jsonBody(schema: TSchema, from: 'anyone' | Scope): [(context: ParserContext) => Promise<Record<string, unknown>>, 'json'] {
  const parse = async ({ request, set, callerOf }: ParserContext) => {
    if (from !== 'anyone') mayDo(await callerOf(request, set.headers), from)
    return readJsonObject(request, schema)
  }
  return [parse, 'json']
}
