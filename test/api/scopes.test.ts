import { describe, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import type { TSchema } from 'elysia'
import fc from 'fast-check'
import { scopesOfColumn } from '../../src/core/accounts/scopes'
import { revokeOwnToken } from '../../src/core/accounts/tokens/revoke-token'
import { issueToken } from '../../src/core/accounts/tokens/issue-token'
import { type Scope, SCOPES } from '../../src/shared/account-shapes'
import { form, json, startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'
import { makePdf } from '../../scripts/support/pdf'

const server = await startTestApp({ PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' })
const alice = await server.user('alice') // the first user: an admin, with a token issued without scopes
const bob = await server.user('bob')

const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })
const ok = async (response: Response, status = 200) => {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}

/** A token of alice's with these scopes, issued through the API by her unrestricted token. */
async function tokenWith(scopes: readonly Scope[]): Promise<{ token: string; id: string }> {
  return ok(await server.call('POST', '/api/tokens', { token: alice.token, ...jsonBody({ label: 'scoped', scopes }) }), 201)
}
const newLink = async (fileId: string) =>
  (await ok(await server.call('POST', `/api/files/${fileId}/links`, { token: alice.token, ...jsonBody({}) }), 201)).id
const newWebhook = async () =>
  (
    await ok(
      await server.call('POST', '/api/webhooks', {
        token: alice.token,
        ...jsonBody({ url: 'http://127.0.0.1:9/hook', events: ['link.downloaded'] }),
      }),
      201,
    )
  ).id

const file = await uploadPdf(server, alice)
const link = await newLink(file.id)
const [version] = await ok(await server.call('GET', `/api/files/${file.id}/versions`, { token: alice.token }))
const NO_SUCH = 'nosuchthingnosuchthing' // a well-formed id of nothing: the route answers 404 once allowed

type Request = { path: string; init?: { body?: BodyInit; headers?: Record<string, string> } }
type Need = Scope | 'any' | 'public'
type AppRoute = { method: string; path: string; need: Need; body: TSchema | undefined }

/**
 * Every route of the app under /api, read from the app itself (so a route added tomorrow is covered without being
 * listed here): its method, path, the scope its `auth` asks for (from the security it declares), and its body schema.
 */
const APP_ROUTES: AppRoute[] = (
  server.app.routes as unknown as { method: string; path: string; hooks: { detail?: { security?: unknown }; body?: TSchema } }[]
)
  .filter((route) => route.path.startsWith('/api/'))
  .map(({ method, path, hooks }) => {
    const security = hooks.detail?.security as { bearer: Scope[] }[] | undefined
    const need: Need = !security?.length ? 'public' : (security[0]!.bearer[0] ?? 'any')
    return { method, path, need, body: hooks.body }
  })

/** The table "Scopes" of docs/api.md, as rules: what each route must ask for. A new route that fits none is a decision. */
function promisedNeed(method: string, path: string): Need {
  if ((path === '/api/me' && method === 'GET') || path === '/api/auth/logout') return 'any' // a token may always say whose it is and end itself
  if (path === '/api/me') return 'account' // PATCH: the account's own settings (its mails' language)
  if (path === '/api/teams/:id/session') return 'any' // a sign-in session only, whatever the scopes (docs/teams.md)
  if (path.startsWith('/api/auth/') || path === '/api/health' || path === '/api/openapi.json') return 'public'
  if (path.startsWith('/api/admin/')) return 'admin'
  if (path.startsWith('/api/me/') || path.startsWith('/api/tokens') || path === '/api/audit') return 'account'
  if (path.startsWith('/api/webhooks') || path.startsWith('/api/notifications/')) return 'webhooks:write'
  if (/\/(analytics|analytics\.csv|visits|visits\.csv|readers|acceptances)$/.test(path)) return 'analytics:read'
  if (/\/links(\/|$)/.test(path) && method !== 'GET') return 'links:write'
  if (path.startsWith('/api/requests') && method !== 'GET') return 'requests:write'
  if (path.startsWith('/api/teams') && (method !== 'GET' || path.endsWith('/audit'))) return 'teams:write' // a team's log: its owners'
  return method === 'GET' ? 'files:read' : 'files:write'
}

/** The outline of a browser's passkey answer, with nothing a server would accept in it. */
const FAKE_CREDENTIAL = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' }, clientExtensionResults: {} }

/**
 * Requests that reach further than the generic one (real ids of alice's, bodies that succeed once allowed), by
 * route. A route without one gets a request made from its own schemas: ids of nothing, a body sampled from its
 * body schema. Never the password: a token's holder is not assumed to know it.
 */
const REQUESTS: Record<string, () => Promise<Request>> = {
  'POST /api/tokens': async () => ({ path: '/api/tokens', init: jsonBody({ label: 'minted', scopes: ['account'] }) }),
  'DELETE /api/tokens/:id': async () => ({ path: `/api/tokens/${(await tokenWith(['files:read'])).id}` }),
  'POST /api/files/upload': async () => ({
    path: '/api/files/upload',
    init: { body: form({ bytes: makePdf() as Uint8Array<ArrayBuffer> }) },
  }),
  'GET /api/files/:id': async () => ({ path: `/api/files/${file.id}` }),
  // Its query is required (a search needs words): a request without one is a 400 before any scope is asked.
  'GET /api/search': async () => ({ path: '/api/search?q=page' }),
  'PUT /api/files/:id': async () => ({ path: `/api/files/${file.id}`, init: jsonBody({ title: `changed ${Math.random()}` }) }),
  'DELETE /api/files/:id': async () => ({ path: `/api/files/${(await uploadPdf(server, alice)).id}` }),
  'GET /api/files/:id/content': async () => ({ path: `/api/files/${file.id}/content` }),
  'GET /api/files/:id/versions': async () => ({ path: `/api/files/${file.id}/versions` }),
  'GET /api/files/:id/versions/:versionId/content': async () => ({ path: `/api/files/${file.id}/versions/${version.id}/content` }),
  'GET /api/files/:id/links': async () => ({ path: `/api/files/${file.id}/links` }),
  'POST /api/files/:id/links': async () => ({ path: `/api/files/${file.id}/links`, init: jsonBody({ label: 'minted' }) }),
  'GET /api/links/:linkId': async () => ({ path: `/api/links/${link}` }),
  'PATCH /api/links/:linkId': async () => ({ path: `/api/links/${link}`, init: jsonBody({ label: `changed ${Math.random()}` }) }),
  'DELETE /api/links/:linkId': async () => ({ path: `/api/links/${await newLink(file.id)}` }),
  'GET /api/files/:id/analytics': async () => ({ path: `/api/files/${file.id}/analytics` }),
  'GET /api/links/:linkId/analytics': async () => ({ path: `/api/links/${link}/analytics` }),
  'GET /api/files/:id/visits.csv': async () => ({ path: `/api/files/${file.id}/visits.csv` }),
  'POST /api/notifications/channels': async () => ({
    path: '/api/notifications/channels',
    init: jsonBody({ kind: 'email', target: 'not an address' }),
  }),
  'POST /api/webhooks': async () => ({
    path: '/api/webhooks',
    init: jsonBody({ url: 'http://127.0.0.1:9/minted', events: ['link.downloaded'] }),
  }),
  'DELETE /api/webhooks/:id': async () => ({ path: `/api/webhooks/${await newWebhook()}` }),
  'PUT /api/me/email': async () => ({ path: '/api/me/email', init: jsonBody({ email: 'mallory@example.test' }) }),
  'POST /api/me/passkeys': async () => ({ path: '/api/me/passkeys', init: jsonBody({ name: 'x', credential: FAKE_CREDENTIAL }) }),
  'PATCH /api/admin/users/:id': async () => ({ path: `/api/admin/users/${NO_SUCH}`, init: jsonBody({ disabled: true }) }),
  'POST /api/admin/invitations': async () => ({ path: '/api/admin/invitations', init: jsonBody({ maxFiles: 1 }) }),
  'PATCH /api/admin/branding': async () => ({ path: '/api/admin/branding', init: jsonBody({ name: 'Scoped' }) }),
  // Not an image: allowed, it is a 400 after the scope was checked (the body is read only then).
  'PUT /api/admin/branding/logo': async () => ({
    path: '/api/admin/branding/logo',
    init: { body: 'not a picture', headers: { 'content-type': 'image/png' } },
  }),
}

type Gen = fc.GeneratorValue
/** A value the schema allows (mostly), drawn with `g`: optional fields and union branches chosen at random. */
function sampleOf(schema: TSchema, g: Gen): unknown {
  if (schema.anyOf) return sampleOf(g(fc.constantFrom, ...(schema.anyOf as TSchema[])), g)
  if ('const' in schema) return schema.const
  if (schema.enum) return g(fc.constantFrom, ...(schema.enum as unknown[]))
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {}
      const required = new Set((schema.required as string[] | undefined) ?? [])
      for (const [name, field] of Object.entries((schema.properties as Record<string, TSchema>) ?? {})) {
        if (required.has(name) || g(fc.boolean)) value[name] = name === 'password' ? 'not the password' : sampleOf(field, g)
      }
      return value
    }
    case 'array':
      return Array.from({ length: Math.max(1, (schema.minItems as number | undefined) ?? 0) }, () => sampleOf(schema.items as TSchema, g))
    case 'string':
      return schema.format === 'email' ? 'mallory@example.test' : 'x'.repeat(Math.max(1, (schema.minLength as number | undefined) ?? 0))
    case 'integer':
    case 'number':
      return (schema.minimum as number | undefined) ?? 1
    case 'boolean':
      return g(fc.boolean)
    default:
      return null
  }
}

/** The request a property run sends: the route's own (REQUESTS), or ids of nothing and a body drawn from its schema. */
async function requestTo(route: AppRoute, g: Gen): Promise<Request> {
  const own = REQUESTS[`${route.method} ${route.path}`]
  if (own) return own()
  const path = route.path.replace(/:[A-Za-z]+/g, NO_SUCH)
  return route.body ? { path, init: jsonBody(sampleOf(route.body, g)) } : { path }
}

/** Everything that decides who can sign in as a user: email, password, second factor, passkeys. */
async function credentialsOf(userId: string): Promise<string> {
  const { users, passkeys } = server.ctx.db.tables
  const [user] = await server.ctx.db.orm
    .select({ email: users.email, password: users.passwordHash, totp: users.totpSecret, totpOn: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId))
  const keys = await server.ctx.db.orm.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId))
  return JSON.stringify({ user, passkeys: keys.map((key) => key.id).sort() })
}
const tokenRows = async (userId: string) => {
  const { tokens } = server.ctx.db.tables
  return server.ctx.db.orm.select().from(tokens).where(eq(tokens.userId, userId))
}
/** The token rows of the JWTs an answer holds (a sign-in's, an issued token's). */
async function tokensIn(text: string) {
  const { tokens } = server.ctx.db.tables
  const ids = [...text.matchAll(/eyJ[\w-]+\.([\w-]+)\.[\w-]+/g)].map(
    (match) => JSON.parse(Buffer.from(match[1]!, 'base64url').toString()).jti,
  )
  return ids.length === 0 ? [] : server.ctx.db.orm.select().from(tokens).where(inArray(tokens.id, ids))
}

/** What a user has, as their unrestricted token sees it: anything a refused request changed would show here. */
async function stateOf(token: string): Promise<string> {
  const reads = ['/api/files', `/api/files/${file.id}/links`, '/api/tokens', '/api/webhooks', `/api/files/${file.id}/versions`]
  const answers = await Promise.all(reads.map(async (path) => (await server.call('GET', path, { token })).text()))
  return answers.join('\n')
}

describe('scoped tokens', () => {
  test('every route asks for the scope the table of docs/api.md gives it, and the OpenAPI document says so', async () => {
    expect(APP_ROUTES.length).toBeGreaterThan(60)
    const declared = APP_ROUTES.map(({ method, path, need }) => `${method} ${path} ${need}`)
    expect(declared).toEqual(APP_ROUTES.map(({ method, path }) => `${method} ${path} ${promisedNeed(method, path)}`))
    const { paths } = await json(await server.call('GET', '/api/openapi.json'))
    for (const route of APP_ROUTES) {
      if (route.path === '/api/openapi.json') continue // the document does not describe itself
      const operation = paths[route.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[route.method.toLowerCase()]
      const bearer = route.need === 'public' ? [] : [{ bearer: route.need === 'any' ? [] : [route.need] }]
      expect(`${route.method} ${route.path} ${JSON.stringify(operation?.security)}`).toBe(
        `${route.method} ${route.path} ${JSON.stringify(bearer)}`,
      )
    }
    // Every request written by hand is for a route that exists (a renamed route must not leave one behind).
    const keys = new Set(APP_ROUTES.map(({ method, path }) => `${method} ${path}`))
    for (const key of Object.keys(REQUESTS)) expect(keys).toContain(key)
  })

  test('property: every token, every route: never what its scopes do not allow, never a credential beyond its own', async () => {
    const holders = { alice: { ...alice, isAdmin: true }, bob: { ...bob, isAdmin: false } }
    const routes = new Map(APP_ROUTES.map((route) => [`${route.method} ${route.path}`, route]))
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes.keys()), // by name, so a counterexample reads as one
        fc.subarray([...SCOPES], { minLength: 1 }),
        fc.constantFrom('alice' as const, 'bob' as const),
        fc.gen(),
        async (routeName, scopes, holderName, g) => {
          const route = routes.get(routeName)!
          const holder = holders[holderName]
          // Issued as the CLI would (any scopes, also `admin` for bob, which his tokens never get to use).
          const issued = await issueToken(server.ctx, { userName: holder.name, label: 'scoped', ttlSeconds: 3600, scopes: new Set(scopes) })
          const held = new Set(scopes.filter((scope) => scope !== 'admin' || holder.isAdmin))
          const { path, init } = await requestTo(route, g)
          const allowed = route.need === 'public' || route.need === 'any' || held.has(route.need)
          const credentials = await credentialsOf(holder.id)
          const tokensBefore = new Set((await tokenRows(holder.id)).map((row) => row.id))
          const before = allowed ? '' : await stateOf(holder.token)
          const response = await server.call(route.method, path, { token: issued.jwt, ...init })
          const text = await response.text()
          const label = `${route.method} ${route.path} [${scopes}] as ${holder.name}`
          const code = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text).code : undefined
          if (allowed) {
            expect(`${label} → ${code ?? response.status}`).not.toContain('insufficient_scope')
            expect(response.status, `${label}: ${text}`).toBeLessThan(500)
          } else {
            expect(`${label} → ${response.status} ${code}`).toBe(`${label} → 403 insufficient_scope`)
            expect(response.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${route.need}"`)
            expect(JSON.parse(text).error).toContain(route.need)
            expect(await stateOf(holder.token)).toBe(before)
          }
          // Never a credential beyond its own: no passkey, email, second factor or password of its user changed,
          // and every token it made or was answered is no session and holds none of the scopes it lacks.
          expect(`${label}: ${await credentialsOf(holder.id)}`).toBe(`${label}: ${credentials}`)
          const made = (await tokenRows(holder.id)).filter((row) => !tokensBefore.has(row.id))
          for (const row of [...made, ...(await tokensIn(text))]) {
            expect(`${label} → ${row.label}: session ${row.provedAt !== null}`).toBe(`${label} → ${row.label}: session false`)
            const beyond = [...scopesOfColumn(row.scopes)].filter((scope) => !scopes.includes(scope))
            expect(`${label} → ${row.label} beyond: ${beyond}`).toBe(`${label} → ${row.label} beyond: `)
          }
          // A user may hold 100 tokens: what this run made goes.
          for (const id of [issued.token.id, ...made.map((row) => row.id)])
            await revokeOwnToken(server.ctx, { userId: holder.id, id }).catch(() => {})
        },
      ),
      { numRuns: 200 },
    )
  }, 60_000) // 200 runs take a few seconds alone; a loaded machine needs more than the default 5 s

  test('a refused upload is refused before its body is read', async () => {
    const { token } = await tokenWith(['files:read'])
    let pulls = 0
    const body = new ReadableStream({
      pull(controller) {
        pulls++
        controller.enqueue(new Uint8Array(1024 * 1024))
      },
    })
    const response = await server.callInProcess('POST', '/api/files/upload', {
      token,
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(100 * 1024 * 1024) },
    })
    expect(response.status).toBe(403)
    expect(pulls).toBeLessThanOrEqual(1)
  })

  test('a token never gives more than it has', async () => {
    const accountOnly = await tokenWith(['account'])
    const more = await server.call('POST', '/api/tokens', {
      token: accountOnly.token,
      ...jsonBody({ label: 'more', scopes: ['account', 'files:write'] }),
    })
    expect(more.status).toBe(403)
    expect(await json(more)).toEqual({
      success: false,
      error: 'A token cannot give more than it may do: the token of this request lacks files:write',
      code: 'insufficient_scope',
    })
    // Without scopes asked for, a new token gets the scopes of the token that made it; an unrestricted one's stays unrestricted.
    const same = await ok(await server.call('POST', '/api/tokens', { token: accountOnly.token, ...jsonBody({ label: 'same' }) }), 201)
    expect(same.scopes).toEqual(['account'])
    const unrestricted = await ok(await server.call('POST', '/api/tokens', { token: alice.token, ...jsonBody({ label: 'all' }) }), 201)
    expect(unrestricted.scopes).toBeNull()
    const listed = await ok(await server.call('GET', '/api/tokens', { token: alice.token }))
    expect(listed.find((token: { id: string }) => token.id === same.id).scopes).toEqual(['account'])
  })

  test('admin counts only for an admin: bob (not the first user) cannot give a token admin, alice can', async () => {
    const refused = await server.call('POST', '/api/tokens', { token: bob.token, ...jsonBody({ label: 'x', scopes: ['admin'] }) })
    expect(refused.status).toBe(403)
    expect((await json(refused)).error).toContain('lacks admin')
    expect((await tokenWith(['admin'])).id).toBeString()
    const me = await ok(await server.call('GET', '/api/me', { token: bob.token }))
    expect(me.name).toBe('bob')
  })

  test('scopes in a body are checked: unknown, repeated or none', async () => {
    for (const [scopes, status] of [
      [['files:read', 'files:read'], 400],
      [['files:everything'], 400],
      [[], 400],
      ['files:read', 400],
    ] as const) {
      const response = await server.call('POST', '/api/tokens', { token: alice.token, ...jsonBody({ label: 'x', scopes }) })
      expect(response.status).toBe(status)
      expect((await json(response)).error).toStartWith('scopes must be a list of different scopes, at least one, from files:read')
    }
  })
})
