import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { createApp } from '../../src/app'
import { json, startTestApp, type TestServer } from '../support/harness'
import { jsonBody, PASSWORD, sessionOf } from '../support/sessions'

// Two-factor sign-in (docs/api.md): codes are made here the way an authenticator app makes them, from the secret.
// Its routes take a dashboard session and the password (test/api/credential-changes.test.ts has the refusals).
const data = async (response: Response, status = 200) => {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}
/** The code an app shows `steps` periods from now. */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  })

/** POST /api/me/two-factor…, from `session`, with the password unless `body` says otherwise. */
const twoFactorCall =
  (server: TestServer, session: string) =>
  (path: string, body: Record<string, string> = {}) =>
    server.call('POST', `/api/me/two-factor${path}`, { token: session, ...jsonBody({ password: PASSWORD, ...body }) })

/** A user (`user.token`: an API token) with two-factor sign-in on, set up from a dashboard session. */
async function withTwoFactor(server: TestServer, name: string) {
  const user = await server.user(name)
  const call = twoFactorCall(server, await sessionOf(server, name))
  const setup = await data(await call(''))
  const recoveryCodes: string[] = (await data(await call('/confirm', { code: codeOf(setup.secret) }))).recoveryCodes
  return { user, call, secret: setup.secret as string, recoveryCodes }
}
const signIn = (server: TestServer, body: Record<string, string>) => server.call('POST', '/api/auth/login', jsonBody(body))

// Made once, before the tests (through the balancer each is three instances and an HAProxy).
const server = await startTestApp()
const root = await server.user('root') // the first user: the admin
const limited = await startTestApp({ PDFSHARE_RATE_LIMIT_LOGIN: '3' })
const fresh = await startTestApp({ PDFSHARE_RATE_LIMIT_LOGIN: '2' })
const pinned = await startTestApp()

describe('two-factor sign-in', () => {
  test('set up: a secret and an otpauth URI; a wrong code does not turn it on; the right one answers ten recovery codes', async () => {
    const bob = await server.user('bob')
    const call = twoFactorCall(server, await sessionOf(server, 'bob'))
    const setup = await data(await call(''))
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/) // 160 bits
    expect(setup.uri).toBe(`otpauth://totp/pdfshare:bob?issuer=pdfshare&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`)
    const wrong = await call('/confirm', { code: '000000' === codeOf(setup.secret) ? '111111' : '000000' })
    expect(wrong.status).toBe(400)
    expect((await json(wrong)).error).toContain('clock')
    expect((await data(await server.call('GET', '/api/me', { token: bob.token }))).twoFactor).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    })
    // Pending: the password alone still signs in.
    expect((await signIn(server, { username: 'bob', password: PASSWORD })).status).toBe(200)

    const { recoveryCodes } = await data(await call('/confirm', { code: codeOf(setup.secret) }))
    expect(recoveryCodes).toHaveLength(10)
    expect(new Set(recoveryCodes).size).toBe(10)
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/)
    expect((await data(await server.call('GET', '/api/me', { token: bob.token }))).twoFactor).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    })
    // On: a second setup is refused until it is turned off.
    expect((await call('')).status).toBe(409)
  })

  test('sign-in: the right password asks for a code; a code works once; the wrong password never mentions codes', async () => {
    const { secret } = await withTwoFactor(server, 'carol')
    const asked = await signIn(server, { username: 'carol', password: PASSWORD })
    expect(asked.status).toBe(401)
    expect(await json(asked)).toMatchObject({ code: 'second_factor_required' })
    const wrongPassword = await signIn(server, { username: 'carol', password: 'not it', code: codeOf(secret) })
    expect(await json(wrongPassword)).toEqual({ success: false, code: 'unauthorized', error: 'Wrong user name or password' })

    const code = codeOf(secret, 1) // the next step's code: the app of a phone whose clock runs ahead
    const session = await data(await signIn(server, { username: 'carol', password: PASSWORD, code }))
    expect((await server.call('GET', '/api/me', { token: session.token })).status).toBe(200)
    const replay = await signIn(server, { username: 'carol', password: PASSWORD, code })
    expect(replay.status).toBe(401)
    expect((await json(replay)).error).toContain('used already')
    // An earlier step's code is no good after a later one was used.
    expect((await signIn(server, { username: 'carol', password: PASSWORD, code: codeOf(secret) })).status).toBe(401)
    const wrongCode = await signIn(server, { username: 'carol', password: PASSWORD, code: '12345' })
    expect(await json(wrongCode)).toMatchObject({ code: 'unauthorized', error: expect.stringContaining('Wrong code') })
    expect((await signIn(server, { username: 'carol', password: PASSWORD, code: codeOf(secret, 5) })).status).toBe(401) // 2.5 min ahead
  })

  test('a recovery code works once, typed in any case and with spaces; the count goes down', async () => {
    const { user, recoveryCodes } = await withTwoFactor(server, 'dave')
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replaceAll('-', ' ')} `
    expect((await signIn(server, { username: 'dave', password: PASSWORD, code: typed })).status).toBe(200)
    expect((await signIn(server, { username: 'dave', password: PASSWORD, code: recoveryCodes[3]! })).status).toBe(401)
    expect((await data(await server.call('GET', '/api/me', { token: user.token }))).twoFactor.recoveryCodesLeft).toBe(9)
    const audit = await data(await server.call('GET', '/api/audit?action=sign_in.succeeded', { token: user.token }))
    expect(audit[0].detail.method).toBe('password and recovery code')
  })

  test('new recovery codes need the password and replace the old ones; turning off needs the password', async () => {
    const { call, recoveryCodes, user } = await withTwoFactor(server, 'erin')
    const refused = await call('/recovery-codes', { password: 'not it' })
    expect(refused.status).toBe(400) // not a 401: the session is fine
    expect((await json(refused)).error).toBe('That is not your current password')
    const renewed: string[] = (await data(await call('/recovery-codes'))).recoveryCodes
    expect(renewed).toHaveLength(10)
    expect((await signIn(server, { username: 'erin', password: PASSWORD, code: recoveryCodes[0]! })).status).toBe(401)
    expect((await signIn(server, { username: 'erin', password: PASSWORD, code: renewed[0]! })).status).toBe(200)

    expect((await call('/off', { password: 'not it' })).status).toBe(400)
    expect(await data(await call('/off'))).toEqual({ enabled: false })
    expect((await signIn(server, { username: 'erin', password: PASSWORD })).status).toBe(200)
    expect((await data(await server.call('GET', '/api/me', { token: user.token }))).twoFactor.enabled).toBe(false)
    const actions = (await data(await server.call('GET', '/api/audit', { token: user.token }))).map(
      (entry: { action: string }) => entry.action,
    )
    expect(actions).toContain('two_factor.enabled')
    expect(actions).toContain('two_factor.recovery_codes_renewed')
    expect(actions).toContain('two_factor.disabled')
  })

  test('API tokens keep working with two-factor sign-in on; an account without a password cannot set it up', async () => {
    const { user } = await withTwoFactor(server, 'frank')
    expect((await server.call('GET', '/api/files', { token: user.token })).status).toBe(200)
    // A session of an account without a password (single sign-on, a passkey), fresh enough to change things.
    const session = await sessionOf(server, 'gina')
    const { users } = server.ctx.db.tables
    await server.ctx.db.orm.update(users).set({ passwordHash: null }).where(eq(users.name, 'gina'))
    const refused = await server.call('POST', '/api/me/two-factor', { token: session, ...jsonBody({}) })
    expect(refused.status).toBe(400)
    expect((await json(refused)).error).toContain('no password')
  })

  test('an admin resets it (a lost phone): listed as on, then off; the reset is in the audit log', async () => {
    const admin = root
    await withTwoFactor(server, 'hank')
    const listed = async () =>
      (await data(await server.call('GET', '/api/admin/users', { token: admin.token }))).find(
        (one: { name: string }) => one.name === 'hank',
      )
    const before = await listed()
    expect(before.twoFactor).toBe(true)
    const reset = await server.call('PATCH', `/api/admin/users/${before.id}`, { token: admin.token, ...jsonBody({ twoFactor: false }) })
    expect((await data(reset)).twoFactor).toBe(false)
    expect((await signIn(server, { username: 'hank', password: PASSWORD })).status).toBe(200)
    const turnOn = await server.call('PATCH', `/api/admin/users/${before.id}`, { token: admin.token, ...jsonBody({ twoFactor: true }) })
    expect(turnOn.status).toBe(400)
    const audit = await data(await server.call('GET', '/api/admin/audit?action=two_factor.reset', { token: admin.token }))
    expect(audit[0].user.name).toBe('hank')
  })
})

test('wrong codes count as failed sign-ins: the sign-in limit stops guessing', async () => {
  await limited.user('root')
  const { secret } = await withTwoFactor(limited, 'ivy')
  const guesses = []
  for (let i = 0; i < 4; i++) guesses.push((await signIn(limited, { username: 'ivy', password: PASSWORD, code: `00000${i}` })).status)
  expect(guesses).toEqual([401, 401, 401, 429])
  // Asking for the code is no failure: it uses up nothing (checked on a fresh app, under the same limit).
  await fresh.user('root')
  const { secret: other } = await withTwoFactor(fresh, 'jay')
  for (let i = 0; i < 3; i++) expect((await signIn(fresh, { username: 'jay', password: PASSWORD })).status).toBe(401)
  expect((await signIn(fresh, { username: 'jay', password: PASSWORD, code: codeOf(other, 1) })).status).toBe(200) // the setup used this step's code
  expect(secret).not.toBe(other)
})

test('with a pinned clock: the codes of the step before, now and after work; two steps off do not; a later step closes earlier ones', async () => {
  await pinned.user('root')
  let now = Date.UTC(2026, 10, 25, 12, 0, 10) // 10 s into a 30-second step
  const app = createApp({ ...pinned.ctx, now: () => now })
  const call = (path: string, token: string | undefined, body: unknown) =>
    app.handle(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      }),
    )
  const kim = await sessionOf(pinned, 'kim')
  const { secret } = (await (await call('/api/me/two-factor', kim, { password: PASSWORD })).json()).data
  const at = (ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms })
  expect((await call('/api/me/two-factor/confirm', kim, { code: at(now - 30_000), password: PASSWORD })).status).toBe(200) // the step before
  const signIn = (code: string) => call('/api/auth/login', undefined, { username: 'kim', password: PASSWORD, code })
  expect((await signIn(at(now + 60_000))).status).toBe(401) // two steps ahead: too far
  expect((await signIn(at(now))).status).toBe(200)
  expect((await signIn(at(now + 30_000))).status).toBe(200) // the step after
  expect((await signIn(at(now))).status).toBe(401) // earlier than the last accepted
  now += 60_000
  expect((await signIn(at(now))).status).toBe(200) // the clock moved on: a new step
})
