import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
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
/** Every authenticated route, the scope it needs (by hand: what docs/api.md promises), and a request to it. */
/** The outline of a browser's passkey answer, with nothing a server would accept in it. */
const FAKE_CREDENTIAL = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' }, clientExtensionResults: {} }

const ROUTES: { method: string; route: string; scope: Scope | 'any'; request: () => Promise<Request> }[] = [
  { method: 'GET', route: '/api/me', scope: 'any', request: async () => ({ path: '/api/me' }) },
  { method: 'POST', route: '/api/auth/logout', scope: 'any', request: async () => ({ path: '/api/auth/logout' }) },
  { method: 'GET', route: '/api/tokens', scope: 'account', request: async () => ({ path: '/api/tokens' }) },
  {
    method: 'POST',
    route: '/api/tokens',
    scope: 'account',
    request: async () => ({ path: '/api/tokens', init: jsonBody({ label: 'minted', scopes: ['account'] }) }),
  },
  {
    method: 'DELETE',
    route: '/api/tokens/{id}',
    scope: 'account',
    request: async () => ({ path: `/api/tokens/${(await tokenWith(['files:read'])).id}` }),
  },
  {
    method: 'POST',
    route: '/api/files/upload',
    scope: 'files:write',
    request: async () => ({ path: '/api/files/upload', init: { body: form({ bytes: makePdf() as Uint8Array<ArrayBuffer> }) } }),
  },
  { method: 'GET', route: '/api/files', scope: 'files:read', request: async () => ({ path: '/api/files' }) },
  { method: 'GET', route: '/api/files/{id}', scope: 'files:read', request: async () => ({ path: `/api/files/${file.id}` }) },
  {
    method: 'PUT',
    route: '/api/files/{id}',
    scope: 'files:write',
    request: async () => ({ path: `/api/files/${file.id}`, init: jsonBody({ title: `changed ${Math.random()}` }) }),
  },
  {
    method: 'DELETE',
    route: '/api/files/{id}',
    scope: 'files:write',
    request: async () => ({ path: `/api/files/${(await uploadPdf(server, alice)).id}` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/content',
    scope: 'files:read',
    request: async () => ({ path: `/api/files/${file.id}/content` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/versions',
    scope: 'files:read',
    request: async () => ({ path: `/api/files/${file.id}/versions` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/versions/{versionId}/content',
    scope: 'files:read',
    request: async () => ({ path: `/api/files/${file.id}/versions/${version.id}/content` }),
  },
  {
    method: 'POST',
    route: '/api/files/{id}/versions/{versionId}/restore',
    scope: 'files:write',
    request: async () => ({ path: `/api/files/${file.id}/versions/${NO_SUCH}/restore` }),
  },
  {
    method: 'DELETE',
    route: '/api/files/{id}/versions/{versionId}',
    scope: 'files:write',
    request: async () => ({ path: `/api/files/${file.id}/versions/${NO_SUCH}` }),
  },
  { method: 'GET', route: '/api/files/{id}/links', scope: 'files:read', request: async () => ({ path: `/api/files/${file.id}/links` }) },
  {
    method: 'POST',
    route: '/api/files/{id}/links',
    scope: 'links:write',
    request: async () => ({ path: `/api/files/${file.id}/links`, init: jsonBody({ label: 'minted' }) }),
  },
  { method: 'GET', route: '/api/links/{linkId}', scope: 'files:read', request: async () => ({ path: `/api/links/${link}` }) },
  {
    method: 'PATCH',
    route: '/api/links/{linkId}',
    scope: 'links:write',
    request: async () => ({ path: `/api/links/${link}`, init: jsonBody({ label: `changed ${Math.random()}` }) }),
  },
  {
    method: 'DELETE',
    route: '/api/links/{linkId}',
    scope: 'links:write',
    request: async () => ({ path: `/api/links/${await newLink(file.id)}` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/analytics',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/files/${file.id}/analytics` }),
  },
  {
    method: 'GET',
    route: '/api/links/{linkId}/analytics',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/links/${link}/analytics` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/visits',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/files/${file.id}/visits` }),
  },
  {
    method: 'GET',
    route: '/api/links/{linkId}/visits',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/links/${link}/visits` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/visits.csv',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/files/${file.id}/visits.csv` }),
  },
  {
    method: 'GET',
    route: '/api/links/{linkId}/visits.csv',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/links/${link}/visits.csv` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/readers',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/files/${file.id}/readers` }),
  },
  {
    method: 'GET',
    route: '/api/links/{linkId}/readers',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/links/${link}/readers` }),
  },
  {
    method: 'GET',
    route: '/api/files/{id}/acceptances',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/files/${file.id}/acceptances` }),
  },
  {
    method: 'GET',
    route: '/api/links/{linkId}/acceptances',
    scope: 'analytics:read',
    request: async () => ({ path: `/api/links/${link}/acceptances` }),
  },
  {
    method: 'GET',
    route: '/api/notifications/channels',
    scope: 'webhooks:write',
    request: async () => ({ path: '/api/notifications/channels' }),
  },
  {
    method: 'POST',
    route: '/api/notifications/channels',
    scope: 'webhooks:write',
    request: async () => ({ path: '/api/notifications/channels', init: jsonBody({ kind: 'email', target: 'not an address' }) }),
  },
  {
    method: 'DELETE',
    route: '/api/notifications/channels/{id}',
    scope: 'webhooks:write',
    request: async () => ({ path: `/api/notifications/channels/${NO_SUCH}` }),
  },
  {
    method: 'POST',
    route: '/api/notifications/channels/{id}/test',
    scope: 'webhooks:write',
    request: async () => ({ path: `/api/notifications/channels/${NO_SUCH}/test` }),
  },
  {
    method: 'GET',
    route: '/api/notifications/deliveries',
    scope: 'webhooks:write',
    request: async () => ({ path: '/api/notifications/deliveries' }),
  },
  {
    method: 'POST',
    route: '/api/readers/erase',
    scope: 'files:write',
    request: async () => ({ path: '/api/readers/erase', init: jsonBody({ address: 'nobody@example.com' }) }),
  },
  { method: 'GET', route: '/api/webhooks', scope: 'webhooks:write', request: async () => ({ path: '/api/webhooks' }) },
  {
    method: 'POST',
    route: '/api/webhooks',
    scope: 'webhooks:write',
    request: async () => ({ path: '/api/webhooks', init: jsonBody({ url: 'http://127.0.0.1:9/minted', events: ['link.downloaded'] }) }),
  },
  {
    method: 'DELETE',
    route: '/api/webhooks/{id}',
    scope: 'webhooks:write',
    request: async () => ({ path: `/api/webhooks/${await newWebhook()}` }),
  },
  {
    method: 'GET',
    route: '/api/webhooks/{id}/deliveries',
    scope: 'webhooks:write',
    request: async () => ({ path: `/api/webhooks/${NO_SUCH}/deliveries` }),
  },
  {
    method: 'POST',
    route: '/api/webhooks/{id}/test',
    scope: 'webhooks:write',
    request: async () => ({ path: `/api/webhooks/${NO_SUCH}/test` }),
  },
  { method: 'GET', route: '/api/audit', scope: 'account', request: async () => ({ path: '/api/audit' }) },
  { method: 'GET', route: '/api/admin/audit', scope: 'admin', request: async () => ({ path: '/api/admin/audit' }) },
  {
    method: 'PUT',
    route: '/api/me/email',
    scope: 'account',
    request: async () => ({ path: '/api/me/email', init: jsonBody({ email: 'not an address' }) }),
  },
  {
    method: 'POST',
    route: '/api/me/sso-link',
    scope: 'account',
    request: async () => ({ path: '/api/me/sso-link', init: jsonBody({ email: 'nobody@example.test' }) }),
  },
  { method: 'DELETE', route: '/api/me/sso-link', scope: 'account', request: async () => ({ path: '/api/me/sso-link' }) },
  { method: 'GET', route: '/api/me/passkeys', scope: 'account', request: async () => ({ path: '/api/me/passkeys' }) },
  { method: 'POST', route: '/api/me/passkeys/options', scope: 'account', request: async () => ({ path: '/api/me/passkeys/options' }) },
  {
    method: 'POST',
    route: '/api/me/passkeys',
    scope: 'account',
    request: async () => ({ path: '/api/me/passkeys', init: jsonBody({ name: 'x', credential: FAKE_CREDENTIAL }) }),
  },
  { method: 'DELETE', route: '/api/me/passkeys/{id}', scope: 'account', request: async () => ({ path: `/api/me/passkeys/${NO_SUCH}` }) },
  { method: 'POST', route: '/api/me/two-factor', scope: 'account', request: async () => ({ path: '/api/me/two-factor' }) },
  {
    method: 'POST',
    route: '/api/me/two-factor/confirm',
    scope: 'account',
    request: async () => ({ path: '/api/me/two-factor/confirm', init: jsonBody({ code: '000000' }) }),
  },
  {
    method: 'POST',
    route: '/api/me/two-factor/recovery-codes',
    scope: 'account',
    request: async () => ({ path: '/api/me/two-factor/recovery-codes', init: jsonBody({ password: 'not hers' }) }),
  },
  {
    method: 'POST',
    route: '/api/me/two-factor/off',
    scope: 'account',
    request: async () => ({ path: '/api/me/two-factor/off', init: jsonBody({ password: 'not hers' }) }),
  },
  { method: 'GET', route: '/api/admin/mail', scope: 'admin', request: async () => ({ path: '/api/admin/mail' }) },
  {
    method: 'POST',
    route: '/api/admin/mail/test',
    scope: 'admin',
    request: async () => ({ path: '/api/admin/mail/test', init: jsonBody({ to: 'nobody@example.test' }) }),
  },
  { method: 'GET', route: '/api/admin/users', scope: 'admin', request: async () => ({ path: '/api/admin/users' }) },
  {
    method: 'PATCH',
    route: '/api/admin/users/{id}',
    scope: 'admin',
    request: async () => ({ path: `/api/admin/users/${NO_SUCH}`, init: jsonBody({ disabled: true }) }),
  },
  { method: 'DELETE', route: '/api/admin/users/{id}', scope: 'admin', request: async () => ({ path: `/api/admin/users/${NO_SUCH}` }) },
  { method: 'GET', route: '/api/admin/tokens', scope: 'admin', request: async () => ({ path: '/api/admin/tokens' }) },
  { method: 'DELETE', route: '/api/admin/tokens/{id}', scope: 'admin', request: async () => ({ path: `/api/admin/tokens/${NO_SUCH}` }) },
  { method: 'GET', route: '/api/admin/invitations', scope: 'admin', request: async () => ({ path: '/api/admin/invitations' }) },
  {
    method: 'POST',
    route: '/api/admin/invitations',
    scope: 'admin',
    request: async () => ({ path: '/api/admin/invitations', init: jsonBody({ maxFiles: 1 }) }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/invitations/{id}',
    scope: 'admin',
    request: async () => ({ path: `/api/admin/invitations/${NO_SUCH}` }),
  },
  { method: 'GET', route: '/api/admin/branding', scope: 'admin', request: async () => ({ path: '/api/admin/branding' }) },
  {
    method: 'PATCH',
    route: '/api/admin/branding',
    scope: 'admin',
    request: async () => ({ path: '/api/admin/branding', init: jsonBody({ name: 'Scoped' }) }),
  },
  {
    method: 'PUT',
    route: '/api/admin/branding/logo',
    scope: 'admin',
    // Not an image: allowed, it is a 400 after the scope was checked (the body is read only then).
    request: async () => ({ path: '/api/admin/branding/logo', init: { body: 'not a picture', headers: { 'content-type': 'image/png' } } }),
  },
  { method: 'DELETE', route: '/api/admin/branding/logo', scope: 'admin', request: async () => ({ path: '/api/admin/branding/logo' }) },
]

/** What alice has, as her unrestricted token sees it: anything a refused request changed would show here. */
async function aliceState(): Promise<string> {
  const reads = ['/api/files', `/api/files/${file.id}/links`, '/api/tokens', '/api/webhooks', `/api/files/${file.id}/versions`]
  const answers = await Promise.all(reads.map(async (path) => (await server.call('GET', path, { token: alice.token })).text()))
  return answers.join('\n')
}

describe('scoped tokens', () => {
  test('every authenticated route of the OpenAPI document needs the scope docs/api.md gives it, and says so', async () => {
    const { paths } = await json(await server.call('GET', '/api/openapi.json'))
    const documented: string[] = []
    for (const [path, operations] of Object.entries(paths as Record<string, Record<string, { security?: unknown }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const security = JSON.stringify(operation.security)
        if (security === '[]') continue // public: health, the document, sign-in
        documented.push(`${method.toUpperCase()} ${path} ${security}`)
      }
    }
    const expected = ROUTES.map(
      ({ method, route, scope }) => `${method} ${route} ${JSON.stringify([{ bearer: scope === 'any' ? [] : [scope] }])}`,
    )
    expect(documented.sort()).toEqual(expected.sort())
  })

  test('property: a token never does what its scopes do not allow, and may do all they allow', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.subarray([...SCOPES], { minLength: 1 }), async (route, scopes) => {
        const { token, id } = await tokenWith(scopes)
        const { path, init } = await route.request()
        const allowed = route.scope === 'any' || scopes.includes(route.scope)
        const before = allowed ? '' : await aliceState()
        const response = await server.call(route.method, path, { token, ...init })
        const text = await response.text()
        const code = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text).code : undefined
        if (allowed) {
          expect(`${route.method} ${route.route} [${scopes}] → ${code ?? response.status}`).not.toContain('insufficient_scope')
          expect(response.status, text).toBeLessThan(500)
        } else {
          expect(`${route.method} ${route.route} [${scopes}] → ${response.status} ${code}`).toBe(
            `${route.method} ${route.route} [${scopes}] → 403 insufficient_scope`,
          )
          expect(response.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${route.scope}"`)
          expect(JSON.parse(text).error).toContain(route.scope)
          expect(await aliceState()).toBe(before)
        }
        await server.call('DELETE', `/api/tokens/${id}`, { token: alice.token }) // a user may hold 100 tokens
      }),
      { numRuns: 120 },
    )
  }, 30_000) // 120 runs take under a second alone; a loaded machine needs more than the default 5 s

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
