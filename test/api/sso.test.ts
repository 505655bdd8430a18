import { describe, expect, test } from 'bun:test'
import { handOff } from '../../src/core/accounts/sso/handoff'
import { ConfigError, loadConfig } from '../../src/config'
import { json, startTestApp } from '../support/harness'

// Single sign-on's server side without a provider: the one-time handoff, password sign-in turned off, the admin's
// permission to link, and the settings. The whole flow through a real provider is test/e2e/single-sign-on.test.ts.

const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })

// Made once, before the tests (through the balancer each is three instances and an HAProxy).
const server = await startTestApp()
const root = await server.user('root') // the first user: the admin
const passwordsOff = await startTestApp({ PDFSHARE_PASSWORD_SIGNIN: 'false' })

describe('the one-time handoff', () => {
  // What the callback's answer leaves in the browser that finished the sign-in: the code in the address, the
  // cookie (HttpOnly, scoped to /api/auth/sso) in the browser.
  const handedOff = async (userId: string) => {
    const { code, browser } = await handOff(server.ctx, userId)
    return { code, cookie: { cookie: `pdfshare_sso=${browser}` } }
  }
  const redeem = (code: string, headers: Record<string, string> = {}) =>
    server.call('POST', '/api/auth/sso', { body: JSON.stringify({ code }), headers: { 'content-type': 'application/json', ...headers } })

  test('a handoff code gives one session, once, to the browser holding its cookie; an unknown or used code is a 401', async () => {
    const alice = await server.user('alice')
    const { code, cookie } = await handedOff(alice.id)
    const answer = await redeem(code, cookie)
    const session = await json(answer)
    expect(session.data.user.name).toBe('alice')
    expect(answer.headers.get('set-cookie')).toStartWith('pdfshare_sso=gone; Max-Age=0; Path=/base/api/auth/sso; HttpOnly')
    expect((await server.call('GET', '/api/me', { token: session.data.token })).status).toBe(200)
    const again = await redeem(code, cookie)
    expect(again.status).toBe(401)
    expect((await json(again)).error).toContain('used already or took longer than a minute')
    expect((await redeem('not-a-code', cookie)).status).toBe(401)
    const audit = await json(await server.call('GET', '/api/audit?action=sign_in.succeeded', { token: alice.token }))
    expect(audit.data[0].detail.method).toBe('sso')
  })

  test("login CSRF: the attacker's code, sent to another browser, is refused there and still unused", async () => {
    const mallory = await server.user('mallory')
    const victimsOwn = await handedOff((await server.user('victim')).id)
    const attackers = await handedOff(mallory.id)
    for (const headers of [{}, victimsOwn.cookie, { cookie: 'pdfshare_sso=1.forged' }]) {
      const refused = await redeem(attackers.code, headers)
      expect(refused.status).toBe(401)
      expect((await json(refused)).error).toContain('finished in another browser')
    }
    // The code is left to the browser it belongs to.
    expect((await json(await redeem(attackers.code, attackers.cookie))).data.user.name).toBe('mallory')
  })
})

describe('PDFSHARE_PASSWORD_SIGNIN=false', () => {
  test('password sign-in and invitations are refused with password_sign_in_off; tokens work; the page says so', async () => {
    const server = passwordsOff
    const root = await server.user('root')
    const refused = await server.call('POST', '/api/auth/login', jsonBody({ username: 'root', password: 'whatever it is' }))
    expect(refused.status).toBe(403)
    expect(await json(refused)).toMatchObject({ code: 'password_sign_in_off' })
    const invitation = await server.call(
      'POST',
      '/api/auth/accept-invitation',
      jsonBody({ invitation: 'x', username: 'y', password: 'long enough password' }),
    )
    expect((await json(invitation)).code).toBe('password_sign_in_off')
    expect((await server.call('GET', '/api/me', { token: root.token })).status).toBe(200)
    const page = await (await server.call('GET', '/app')).text()
    expect(page).toContain('data-password-sign-in="false"')
    expect(page).toContain('data-sso=""')
  })

  test('without PDFSHARE_OIDC_ISSUER the single sign-on pages answer 404 with a page', async () => {
    const login = await server.call('GET', '/auth/oidc/login')
    expect(login.status).toBe(404)
    expect(await login.text()).toContain('Single sign-on is not set up')
  })
})

describe('linking an existing user', () => {
  test('an admin sets and withdraws the email; a bad one is a 400; one email waits for one user only', async () => {
    const bob = await server.user('bob')
    const carl = await server.user('carl')
    const patch = (id: string, body: unknown) => server.call('PATCH', `/api/admin/users/${id}`, { token: root.token, ...jsonBody(body) })
    expect((await json(await patch(bob.id, { ssoEmail: ' Bob@Example.COM ' }))).data.ssoEmail).toBe('bob@example.com')
    expect((await patch(carl.id, { ssoEmail: 'bob@example.com' })).status).toBe(409)
    expect((await patch(carl.id, { ssoEmail: 'not an email' })).status).toBe(400)
    expect((await json(await patch(bob.id, { ssoEmail: null }))).data.ssoEmail).toBeNull()
    expect((await json(await patch(carl.id, { ssoEmail: 'bob@example.com' }))).data.ssoEmail).toBe('bob@example.com')
  })
})

describe('settings', () => {
  test('an issuer needs a client id and the other way round; domains must be domains', () => {
    const load = (env: Record<string, string>) => () => loadConfig({}, env, '/srv')
    expect(load({ PDFSHARE_OIDC_ISSUER: 'https://id.example.com' })).toThrow(ConfigError)
    expect(load({ PDFSHARE_OIDC_ISSUER: 'https://id.example.com' })).toThrow('only the issuer is set')
    expect(load({ PDFSHARE_OIDC_CLIENT_ID: 'pdfshare' })).toThrow('only the client id is set')
    expect(load({ PDFSHARE_OIDC_ALLOWED_DOMAINS: 'example.com, not a domain' })).toThrow('PDFSHARE_OIDC_ALLOWED_DOMAINS')
    const config = loadConfig(
      {},
      {
        PDFSHARE_OIDC_ISSUER: 'https://id.example.com/realms/team/',
        PDFSHARE_OIDC_CLIENT_ID: 'pdfshare',
        PDFSHARE_OIDC_ALLOWED_DOMAINS: 'Example.com,example.org',
      },
      '/srv',
    )
    expect(config.oidcIssuer).toBe('https://id.example.com/realms/team/') // kept exactly: issuers compare to the byte
    expect(config.oidcAllowedDomains).toEqual(['example.com', 'example.org'])
  })
})
