import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context'
import { badRequest } from '../../errors'
import { clientGroupOf } from '../../http/client-ip'
import { requireMediaType } from '../../http/request-body'
import { authFailures, FailureSchema, openApiSchema } from '../../http/schemas'
import { parseTtl } from '../../lib/durations'
import { readJsonBody } from '../../uploads/read-json-body'
import type { TokenRow } from '../../db/schema'
import type { AuthPlugin } from '.'
import { logIn } from './login'
import { signInLimits } from './sign-in-limits'
import { issueToken, listActiveTokens, revokeOwnToken } from './tokens'
import { findUserById } from './users'

const tags = ['account']
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

const LoginBody = t.Object({ username: t.String({ maxLength: 64 }), password: t.String({ maxLength: 1024 }) })
const NewTokenBody = t.Object({
  label: t.String({ minLength: 1, maxLength: 100 }),
  ttl: t.Optional(t.String({ description: 'Lifetime like the CLI\'s --ttl: 90d, 12h, 30m, 2w, 1y or "never"; default 90d' })),
})
const TokenSchema = t.Object({
  id: t.String({ description: "The token's jti; DELETE /api/tokens/{id} revokes it" }),
  label: t.String(),
  createdAt: t.String(),
  expiresAt: t.Union([t.String(), t.Null()], { description: 'null: never expires' }),
  current: t.Boolean({ description: 'The token this request was made with' }),
})
const IssuedSchema = t.Object({
  token: t.String({ description: 'The JWT. Shown once; only its id is kept.' }),
  id: t.String(),
  label: t.String(),
  expiresAt: t.Union([t.String(), t.Null()]),
})

/** A JSON object body with string fields only where the schema says so; anything else is a 400 that says what. */
function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object')
  return body as Record<string, unknown>
}
function stringField(body: Record<string, unknown>, name: string, rule: { min?: number; max: number }): string {
  const value = body[name]
  if (typeof value !== 'string') throw badRequest(`${name} must be a string`)
  const length = [...value].length
  if (length < (rule.min ?? 0) || length > rule.max) throw badRequest(`${name} must be ${rule.min ?? 0} to ${rule.max} characters`)
  return value
}

/**
 * POST /api/auth/login (password → a session token), POST /api/auth/logout, and the signed-in user's own
 * tokens: GET/POST /api/tokens, DELETE /api/tokens/:id. Bearer tokens only: no cookie is ever set.
 */
export function accountRoutes(ctx: AppContext, auth: AuthPlugin) {
  const attempt = signInLimits(ctx)
  const tokenDto = (row: TokenRow, currentId: string) => ({ id: row.id, label: row.label, createdAt: iso(row.createdAt)!, expiresAt: iso(row.expiresAt), current: row.id === currentId })

  return new Elysia({ prefix: '/api' })
    .post(
      '/auth/login',
      async ({ request, server }) => {
        // JSON only: a text/plain or form body would make this a CORS-simple request any web page can send.
        requireMediaType(request, ['application/json'])
        const body = objectBody(await readJsonBody(request))
        const username = stringField(body, 'username', { min: 1, max: 64 })
        const password = stringField(body, 'password', { min: 1, max: 1024 })
        const who = { address: clientGroupOf(request, server, ctx.config.trustProxyHops), name: username.toLowerCase() }
        const session = await attempt(who, () => logIn(ctx, { username, password }))
        return {
          success: true as const,
          data: { token: session.jwt, tokenId: session.token.id, label: session.token.label, expiresAt: iso(session.token.expiresAt), user: session.user },
        }
      },
      {
        parse: 'none',
        response: {
          200: t.Object({ success: t.Literal(true), data: t.Object({ token: t.String(), tokenId: t.String(), label: t.String(), expiresAt: t.Union([t.String(), t.Null()]), user: t.Object({ id: t.String(), name: t.String() }) }) }),
          400: FailureSchema,
          401: FailureSchema,
          403: FailureSchema,
          415: FailureSchema,
          429: FailureSchema,
          503: FailureSchema,
        },
        detail: {
          summary: 'Sign in with a user name and password: a session token (default 12 h), revocable like any token',
          tags,
          requestBody: { required: true, content: { 'application/json': { schema: openApiSchema(LoginBody) } } },
        },
      },
    )
    .use(auth)
    .post(
      '/auth/logout',
      async ({ caller }) => ({ success: true as const, data: { id: (await revokeOwnToken(ctx, { userId: caller.userId, id: caller.tokenId })).id } }),
      {
        auth: true,
        response: { 200: t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) }), ...authFailures },
        detail: { summary: 'Revoke the token this request was made with (sign out)', tags },
      },
    )
    .get(
      '/tokens',
      async ({ caller }) => ({ success: true as const, data: (await listActiveTokens(ctx, caller.userId)).map((row) => tokenDto(row, caller.tokenId)) }),
      {
        auth: true,
        response: { 200: t.Object({ success: t.Literal(true), data: t.Array(TokenSchema) }), ...authFailures },
        detail: { summary: "The caller's tokens that still work, newest first (never their values)", tags },
      },
    )
    .post(
      '/tokens',
      async ({ request, caller, set }) => {
        const body = objectBody(await readJsonBody(request))
        const label = stringField(body, 'label', { min: 1, max: 100 }).trim()
        if (!label) throw badRequest('label must not be blank')
        const ttlText = body.ttl === undefined ? '90d' : body.ttl
        const ttlSeconds = typeof ttlText === 'string' ? parseTtl(ttlText) : undefined
        if (ttlSeconds === undefined) throw badRequest('ttl must be a lifetime such as 90d, 12h, 30m, 2w, 1y, or "never"')
        const user = await findUserById(ctx, caller.userId)
        const issued = await issueToken(ctx, { userName: user.name, label, ttlSeconds })
        set.status = 201
        return { success: true as const, data: { token: issued.jwt, id: issued.token.id, label: issued.token.label, expiresAt: iso(issued.token.expiresAt) } }
      },
      {
        auth: true,
        parse: 'none',
        response: { 201: t.Object({ success: t.Literal(true), data: IssuedSchema }), 400: FailureSchema, 403: FailureSchema, ...authFailures },
        detail: {
          summary: 'Create an API token for the caller; its value is in this answer only',
          tags,
          requestBody: { required: true, content: { 'application/json': { schema: openApiSchema(NewTokenBody) } } },
        },
      },
    )
    .delete(
      '/tokens/:id',
      async ({ caller, params }) => ({ success: true as const, data: { id: (await revokeOwnToken(ctx, { userId: caller.userId, id: params.id })).id } }),
      {
        auth: true,
        params: t.Object({ id: t.String({ maxLength: 64 }) }),
        response: { 200: t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) }), 404: FailureSchema, ...authFailures },
        detail: { summary: "Revoke one of the caller's tokens (another user's is 404, like an unknown one)", tags },
      },
    )
}
