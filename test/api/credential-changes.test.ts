import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { issueToken } from '../../src/core/accounts/tokens/issue-token'
import { json, startTestApp, type TestServer } from '../support/harness'
import { jsonBody, PASSWORD, sessionOf } from '../support/sessions'
import { createPasskey, type SoftPasskey, usePasskey } from '../support/soft-authenticator'

// Changing how an account signs in (passkeys, the reset email, two-factor sign-in) takes a dashboard session and
// the password sent again (docs/sign-in.md, Changing how you sign in); an API token, whatever its scopes, never
// may. The attacks of issue 33 through HTTP: a token with only `account` that makes a passkey of its own, sets the
// reset email or turns two-factor sign-in on. Also: a mailed reset of an account with two-factor sign-in on signs
// nobody in, and reset mails are limited per address per hour.

const ORIGIN = 'https://pdf.example.test' // the harness's PDFSHARE_PUBLIC_URL is https://pdf.example.test/base
const MINUTE = 60_000
// Mail is queued (to an SMTP server that is never asked: no worker runs), so the outbox shows what would go out.
const server = await startTestApp({ PDFSHARE_SMTP_URL: 'smtp://127.0.0.1:9' })
await server.user('root') // the first user: an admin

const data = async (response: Response, status = 200) => {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}
/** Status and code of a refusal; with `says`, its message must contain that too. */
const refusal = async (response: Response, says = '') => {
  const { code, error } = await json(response)
  expect(error).toContain(says)
  return [response.status, code]
}
/** A token the session issues through the API, as a script would get one. */
const tokenOf = async (session: string, scopes: string[]) =>
  (await data(await server.call('POST', '/api/tokens', { token: session, ...jsonBody({ label: 'script', scopes }) }), 201)).token as string
const userRow = async (target: TestServer, name: string) => {
  const { users } = target.ctx.db.tables
  return (await target.ctx.db.orm.select().from(users).where(eq(users.name, name)))[0]!
}
const mailsTo = async (target: TestServer, address: string) => {
  const { mailOutbox } = target.ctx.db.tables
  // In the order they were queued (without an ORDER BY, PostgreSQL answers in any order).
  return target.ctx.db.orm.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)).orderBy(mailOutbox.seq)
}
/**
 * The reset email as its owner sets it: PUT /api/me/email's answer (202: pending), then the link mailed to the new
 * address opened (docs/api.md, Password reset). Answers the account's email afterwards.
 */
async function emailSet(put: Response): Promise<{ email: string | null }> {
  const text = await put.text()
  expect([200, 202], text).toContain(put.status)
  const answer = JSON.parse(text).data
  if (answer.pendingEmail === null) return answer
  const confirmation = (await mailsTo(server, answer.pendingEmail)).filter((mail) => mail.kind === 'email confirmation').at(-1)!
  const secret = /#\/email\/([A-Za-z0-9_-]{22})/.exec(confirmation.textBody)![1]!
  return data(await server.call('POST', '/api/auth/email/confirm', jsonBody({ secret })))
}
const actions = async (token: string, action: string) =>
  (await data(await server.call('GET', `/api/audit?action=${action}`, { token }))).length
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 })

async function addPasskey(token: string, proof: Record<string, string>): Promise<SoftPasskey> {
  const options = await data(await server.call('POST', '/api/me/passkeys/options', { token, ...jsonBody(proof) }))
  const made = createPasskey(options, ORIGIN)
  await data(
    await server.call('POST', '/api/me/passkeys', { token, ...jsonBody({ name: 'Laptop', credential: made.credential, ...proof }) }),
    201,
  )
  return made.passkey
}
async function passkeySignIn(passkey: SoftPasskey): Promise<Response> {
  const options = await data(await server.call('POST', '/api/auth/passkey/options'))
  return server.call('POST', '/api/auth/passkey', jsonBody({ credential: usePasskey(passkey, options, ORIGIN) }))
}

describe('an API token with only `account`', () => {
  test('cannot make a passkey of its own, so cannot sign in with one as its admin', async () => {
    const session = await sessionOf(server, 'root')
    const token = await tokenOf(session, ['account'])
    const asked = await server.call('POST', '/api/me/passkeys/options', { token, ...jsonBody({ password: PASSWORD }) })
    expect(await refusal(asked)).toEqual([403, 'reauthentication_required'])
    // Options a session asked for do not help it either: keeping the passkey is refused too.
    const options = await data(
      await server.call('POST', '/api/me/passkeys/options', { token: session, ...jsonBody({ password: PASSWORD }) }),
    )
    const made = createPasskey(options, ORIGIN)
    const kept = await server.call('POST', '/api/me/passkeys', {
      token,
      ...jsonBody({ name: 'Mallory', credential: made.credential, password: PASSWORD }),
    })
    expect(await refusal(kept)).toEqual([403, 'reauthentication_required'])
    expect(await data(await server.call('GET', '/api/me/passkeys', { token: session }))).toEqual([])
    expect((await passkeySignIn(made.passkey)).status).toBe(401)
  })

  test('cannot set the reset email (and so cannot reset the password)', async () => {
    const session = await sessionOf(server, 'amy')
    const token = await tokenOf(session, ['account'])
    const set = await server.call('PUT', '/api/me/email', { token, ...jsonBody({ email: 'mallory@evil.test', password: PASSWORD }) })
    expect(await refusal(set, 'sign in to the dashboard')).toEqual([403, 'reauthentication_required'])
    expect((await userRow(server, 'amy')).email).toBeNull()
    expect((await server.call('POST', '/api/auth/password-reset', jsonBody({ email: 'mallory@evil.test' }))).status).toBe(202)
    expect(await mailsTo(server, 'mallory@evil.test')).toEqual([])
  })

  test('cannot turn two-factor sign-in on (or touch it at all)', async () => {
    const session = await sessionOf(server, 'ben')
    const token = await tokenOf(session, ['account'])
    for (const [path, body] of [
      ['', { password: PASSWORD }],
      ['/confirm', { code: '123456', password: PASSWORD }],
      ['/recovery-codes', { password: PASSWORD }],
      ['/off', { password: PASSWORD }],
    ] as const) {
      const response = await server.call('POST', `/api/me/two-factor${path}`, { token, ...jsonBody(body) })
      expect([path, ...(await refusal(response))]).toEqual([path, 403, 'reauthentication_required'])
    }
    expect(await userRow(server, 'ben')).toMatchObject({ totpSecret: null, totpEnabledAt: null })
  })
})

describe('changing how you sign in', () => {
  const CHANGES = [
    ['POST', '/api/me/passkeys/options', {}],
    [
      'POST',
      '/api/me/passkeys',
      {
        name: 'x',
        credential: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' }, clientExtensionResults: {} },
      },
    ],
    ['DELETE', '/api/me/passkeys/nosuchpasskey', {}],
    ['PUT', '/api/me/email', { email: 'new@example.test' }],
    ['POST', '/api/me/sso-link', { email: 'new@example.test' }],
    ['POST', '/api/me/two-factor', {}],
    ['POST', '/api/me/two-factor/confirm', { code: '123456' }],
    ['POST', '/api/me/two-factor/recovery-codes', {}],
    ['POST', '/api/me/two-factor/off', {}],
  ] as const

  test('is refused to every API token, even one that may do everything (the CLI’s, or one without scopes)', async () => {
    await sessionOf(server, 'cal')
    const cli = (await issueToken(server.ctx, { userName: 'cal', label: 'CLI', ttlSeconds: null })).jwt
    for (const [method, path, body] of CHANGES) {
      const response = await server.call(method, path, { token: cli, ...jsonBody({ ...body, password: PASSWORD }) })
      expect([method, path, ...(await refusal(response))]).toEqual([method, path, 403, 'reauthentication_required'])
    }
  })

  test('an admin’s token cannot change its own account’s sign-in through the admin routes (they ask no password)', async () => {
    const admin = (await issueToken(server.ctx, { userName: 'root', label: 'admin script', ttlSeconds: null, scopes: new Set(['admin']) }))
      .jwt
    const rootId = (await userRow(server, 'root')).id
    const before = await userRow(server, 'root')
    for (const change of [{ twoFactor: false }, { ssoEmail: 'root.sso@example.com' }, { email: null }]) {
      const response = await server.call('PATCH', `/api/admin/users/${rootId}`, { token: admin, ...jsonBody(change) })
      expect([JSON.stringify(change), ...(await refusal(response, 'Account page'))]).toEqual([
        JSON.stringify(change),
        403,
        'reauthentication_required',
      ])
    }
    expect(await userRow(server, 'root')).toEqual(before)
    // Another user's the admin manages as before.
    await sessionOf(server, 'kit')
    const kitId = (await userRow(server, 'kit')).id
    await data(await server.call('PATCH', `/api/admin/users/${kitId}`, { token: admin, ...jsonBody({ twoFactor: false }) }))
  })

  test('takes the password from a session: without it a 403 that asks for it, a wrong one a 400; the session stays', async () => {
    const session = await sessionOf(server, 'dot')
    for (const [method, path, body] of CHANGES) {
      const asked = await server.call(method, path, { token: session, ...jsonBody(body) })
      expect([method, path, ...(await refusal(asked, 'Enter your current password'))]).toEqual([
        method,
        path,
        403,
        'reauthentication_required',
      ])
      const wrong = await server.call(method, path, { token: session, ...jsonBody({ ...body, password: 'not the password' }) })
      expect([method, path, ...(await refusal(wrong))]).toEqual([method, path, 400, 'invalid_request'])
    }
    expect((await server.call('GET', '/api/me', { token: session })).status).toBe(200)
  })

  test('a session with the password adds a passkey that signs in; the changes are in the audit log, the refusals not', async () => {
    const session = await sessionOf(server, 'eve')
    const passkey = await addPasskey(session, { password: PASSWORD })
    const signedIn = await data(await passkeySignIn(passkey))
    expect(signedIn.user.name).toBe('eve')
    await emailSet(
      await server.call('PUT', '/api/me/email', { token: signedIn.token, ...jsonBody({ email: 'eve@example.test', password: PASSWORD }) }),
    )
    const token = await tokenOf(session, ['account'])
    expect((await server.call('POST', '/api/me/passkeys/options', { token, ...jsonBody({ password: PASSWORD }) })).status).toBe(403)
    expect(await actions(session, 'passkey.added')).toBe(1)
    expect(await actions(session, 'user.email_set')).toBe(1) // once confirmed
  })

  test('a new reset email: the old address is told, the new one is where resets go', async () => {
    const session = await sessionOf(server, 'fay')
    const put = (email: string | null) =>
      server.call('PUT', '/api/me/email', { token: session, ...jsonBody({ email, password: PASSWORD }) })
    const changed = async (address: string) => (await mailsTo(server, address)).filter((mail) => mail.kind === 'email changed')
    await emailSet(await put('fay@example.test'))
    expect(await changed('fay@example.test')).toEqual([]) // there was no address to tell
    await emailSet(await put('fay@elsewhere.test'))
    const [notice] = await changed('fay@example.test')
    expect(notice).toMatchObject({ kind: 'email changed', subject: 'Your pdfshare email was changed' })
    expect(notice!.textBody).toContain('fay@elsewhere.test')
    expect(notice!.textBody).toContain('fay')
    await emailSet(await put('fay@elsewhere.test')) // the same address again: nothing to tell
    await emailSet(await put(null))
    expect((await changed('fay@example.test')).length).toBe(1)
    expect((await changed('fay@elsewhere.test')).length).toBe(1)
  })

  test('an account without a password: a session whose sign-in is recent (10 minutes by default); then sign in again', async () => {
    const session = await sessionOf(server, 'gil')
    const passkey = await addPasskey(session, { password: PASSWORD })
    const { users } = server.ctx.db.tables
    await server.ctx.db.orm.update(users).set({ passwordHash: null }).where(eq(users.name, 'gil')) // a passkey-only account
    const fresh = (await data(await passkeySignIn(passkey))).token
    const put = (token: string, email: string) => server.call('PUT', '/api/me/email', { token, ...jsonBody({ email }) })
    expect((await emailSet(await put(fresh, 'gil@example.test'))).email).toBe('gil@example.test')
    const realNow = server.ctx.now
    try {
      server.ctx.now = () => realNow() + 11 * MINUTE
      const stale = await put(fresh, 'gil@elsewhere.test')
      expect(await refusal(stale, 'Sign in again')).toEqual([403, 'reauthentication_required'])
      const again = (await data(await passkeySignIn(passkey))).token
      expect((await emailSet(await put(again, 'gil@elsewhere.test'))).email).toBe('gil@elsewhere.test')
    } finally {
      server.ctx.now = realNow
    }
  })

  test('an account with a password: the password is the proof, however old the session', async () => {
    const session = await sessionOf(server, 'hal')
    const realNow = server.ctx.now
    try {
      server.ctx.now = () => realNow() + 11 * 60 * MINUTE
      const put = await server.call('PUT', '/api/me/email', {
        token: session,
        ...jsonBody({ email: 'hal@example.test', password: PASSWORD }),
      })
      expect((await emailSet(put)).email).toBe('hal@example.test')
    } finally {
      server.ctx.now = realNow
    }
  })
})

describe('password reset', () => {
  async function resetSecret(target: TestServer, address: string): Promise<string> {
    expect((await target.call('POST', '/api/auth/password-reset', jsonBody({ email: address }))).status).toBe(202)
    const mails = await mailsTo(target, address)
    return /#\/reset\/([A-Za-z0-9_-]{22})/.exec(mails.filter((mail) => mail.kind === 'password reset').at(-1)!.textBody)![1]!
  }

  test('with two-factor sign-in on, a mailed reset sets the password and signs nobody in: the sign-in asks for the code', async () => {
    const session = await sessionOf(server, 'ida')
    const proof = { password: PASSWORD }
    await emailSet(await server.call('PUT', '/api/me/email', { token: session, ...jsonBody({ email: 'ida@example.test', ...proof }) }))
    const { secret } = await data(await server.call('POST', '/api/me/two-factor', { token: session, ...jsonBody(proof) }))
    const confirm = jsonBody({ code: codeOf(secret), ...proof })
    await data(await server.call('POST', '/api/me/two-factor/confirm', { token: session, ...confirm }))

    const done = await server.call(
      'POST',
      '/api/auth/password-reset/complete',
      jsonBody({ secret: await resetSecret(server, 'ida@example.test'), password: 'a brand new password' }),
    )
    const answer = await data(done)
    expect(answer).toEqual({ user: { id: expect.any(String), name: 'ida' }, secondFactorRequired: true })
    expect(JSON.stringify(answer)).not.toMatch(/eyJ/) // no token in it
    expect((await server.call('GET', '/api/me', { token: session })).status).toBe(401) // the other sessions ended
    const login = (body: Record<string, string>) => server.call('POST', '/api/auth/login', jsonBody({ username: 'ida', ...body }))
    expect(await refusal(await login({ password: 'a brand new password' }))).toEqual([401, 'second_factor_required'])
    const signedIn = await data(await login({ password: 'a brand new password', code: codeOf(secret, 1) }))
    const audit = await data(await server.call('GET', '/api/audit', { token: signedIn.token }))
    const reset = audit.find((entry: { action: string }) => entry.action === 'user.password_set')
    expect(reset.detail).toMatchObject({ via: 'password reset' })
    const methods = audit
      .filter((entry: { action: string }) => entry.action === 'sign_in.succeeded')
      .map((entry: { detail: { method: string } }) => entry.detail.method)
    expect(methods).not.toContain('password reset')
    expect(methods).toContain('password and totp')
  })

  test('without two-factor sign-in, a reset still signs in (its session may change credentials with the password)', async () => {
    const session = await sessionOf(server, 'jon')
    await emailSet(
      await server.call('PUT', '/api/me/email', { token: session, ...jsonBody({ email: 'jon@example.test', password: PASSWORD }) }),
    )
    const secret = await resetSecret(server, 'jon@example.test')
    const signedIn = await data(
      await server.call('POST', '/api/auth/password-reset/complete', jsonBody({ secret, password: 'a brand new password' })),
    )
    expect(signedIn.user.name).toBe('jon')
    const put = await server.call('PUT', '/api/me/email', {
      token: signedIn.token,
      ...jsonBody({ email: 'jon@elsewhere.test', password: 'a brand new password' }),
    })
    expect((await emailSet(put)).email).toBe('jon@elsewhere.test')
  })

  test('a made-up reset link costs no password hash: a flood of them never fills the password queue', async () => {
    // The queue holds 2 hashes at work and 32 waiting; a 35th at once was a 503 for everyone's sign-in.
    const bogus = Array.from({ length: 40 }, (_, i) =>
      server.call('POST', '/api/auth/password-reset/complete', jsonBody({ secret: `made-up-${i}`, password: 'a brand new password' })),
    )
    const statuses = await Promise.all(bogus.map(async (answer) => (await answer).status))
    expect(statuses).toEqual(Array(40).fill(404))
  })

  test('reset mails: at most 3 an hour to one address, not 3 a minute', async () => {
    const limited = await startTestApp({ PDFSHARE_SMTP_URL: 'smtp://127.0.0.1:9' })
    await limited.user('root')
    const hour = Date.UTC(2026, 10, 28, 9) // the clock pinned: the windows are the clock's hours
    limited.ctx.now = () => hour + MINUTE
    const ask = () => limited.call('POST', '/api/auth/password-reset', jsonBody({ email: 'kay@example.test' }))
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await ask()).status)
    expect(statuses).toEqual([202, 202, 202, 429])
    limited.ctx.now = () => hour + 59 * MINUTE // later in the same hour: still refused
    const refused = await ask()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBe(60)
    limited.ctx.now = () => hour + 61 * MINUTE // the next hour
    expect((await ask()).status).toBe(202)
  })
})
