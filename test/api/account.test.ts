import { describe, expect, test } from 'bun:test'
import { setPassword } from '../../src/core/accounts/users/users'
import { DECOY_HASH, hashPassword } from '../../src/core/passwords/argon2'
import { createApp } from '../../src/app'
import { BASE, json, startTestApp } from '../support/harness'

// Password sign-in and token self-service. X-Forwarded-For is trusted for one hop here, so tests
// can stand for clients at different addresses.
const server = await startTestApp({ PDFSHARE_RATE_LIMIT_LOGIN: '4', PDFSHARE_TRUST_PROXY: '1' })
// Sign-in limits count per minute: for sign-ins the clock stands still, so no test can straddle two windows.
const STARTED = Date.now()
const signInApp = createApp({ ...server.ctx, now: () => STARTED })
let address = 0
const post = (path: string, body: unknown, init: { token?: string; ip?: string } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': init.ip ?? `10.0.0.${++address}` }
  if (init.token) headers.authorization = `Bearer ${init.token}`
  return (path === '/api/auth/login' ? signInApp : server.app).handle(
    new Request(`${BASE}${path}`, { method: 'POST', body: JSON.stringify(body), headers }),
  )
}
const status = async (token: string) => (await server.call('GET', '/api/me', { token })).status

async function userWithPassword(password = 'correct horse battery') {
  const user = await server.user()
  await setPassword(server.ctx, { name: user.name, password })
  return { ...user, password }
}

describe('POST /api/auth/login', () => {
  test('the right password gives a 12 h session token that works, labelled and revocable', async () => {
    const user = await userWithPassword()
    const response = await post('/api/auth/login', { username: user.name, password: user.password })
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toBeNull()
    const { data } = await json(response)
    expect(data.user).toEqual({ id: user.id, name: user.name })
    expect(data.label).toBe('dashboard session')
    expect(Date.parse(data.expiresAt) - Date.now()).toBeGreaterThan(12 * 3600_000 - 60_000)
    expect(Date.parse(data.expiresAt) - Date.now()).toBeLessThanOrEqual(12 * 3600_000)
    expect(await status(data.token)).toBe(200)
    expect((await post('/api/auth/logout', {}, { token: data.token })).status).toBe(200)
    expect(await status(data.token)).toBe(401)
  })

  test('a wrong password, an unknown user and a user without a password get the same 401', async () => {
    const user = await userWithPassword()
    const noPassword = await server.user()
    const answers = []
    for (const attempt of [
      { username: user.name, password: 'wrong password' },
      { username: 'nobody-by-this-name', password: user.password },
      { username: noPassword.name, password: 'whatever it is' },
    ]) {
      const response = await post('/api/auth/login', attempt)
      expect(response.status).toBe(401)
      answers.push(await json(response))
    }
    expect(answers).toEqual(Array(3).fill({ success: false, error: 'Wrong user name or password', code: 'unauthorized' }))
  })

  test('malformed bodies are a 400 that says what is wrong', async () => {
    for (const [body, message] of [
      [{ username: 'a' }, 'password must be a string'],
      [{ username: 'a', password: '' }, 'password must be 1 to 1024 characters'],
      [[1, 2], 'The body must be a JSON object'],
    ] as const) {
      const response = await post('/api/auth/login', body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toBe(message)
    }
  })

  test('sign-in takes application/json only: a text/plain body (a CORS-simple request) is a 415', async () => {
    const user = await userWithPassword()
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const headers: Record<string, string> = { 'x-forwarded-for': `10.1.0.${++address}` }
      if (type) headers['content-type'] = type
      const response = await signInApp.handle(
        new Request(`${BASE}/api/auth/login`, {
          method: 'POST',
          body: JSON.stringify({ username: user.name, password: user.password }),
          headers,
        }),
      )
      expect(response.status).toBe(415)
      expect((await json(response)).code).toBe('unsupported_media_type')
    }
  })

  test('only failures count: the right password keeps working however often it is used', async () => {
    const user = await userWithPassword()
    for (let i = 0; i < 6; i++)
      expect((await post('/api/auth/login', { username: user.name, password: user.password }, { ip: '192.0.2.50' })).status).toBe(200)
  })

  test('an address with too many failures is refused, also with the right password, until the minute is over', async () => {
    const user = await userWithPassword()
    // One address, many names: after four failures the fifth attempt is refused before any password is checked.
    for (let i = 0; i < 4; i++)
      expect((await post('/api/auth/login', { username: `guess${i}`, password: 'x' }, { ip: '192.0.2.1' })).status).toBe(401)
    const limited = await post('/api/auth/login', { username: user.name, password: user.password }, { ip: '192.0.2.1' })
    expect(limited.status).toBe(429)
    expect((await json(limited)).code).toBe('rate_limited')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('failures against a name lock it only for addresses that failed: the owner at a clean address still gets in', async () => {
    const target = await userWithPassword()
    // Four addresses guess the name: the name's failure budget is used up.
    for (let i = 1; i <= 4; i++)
      expect((await post('/api/auth/login', { username: target.name, password: 'wrong guess' }, { ip: `198.51.100.${i}` })).status).toBe(
        401,
      )
    // An address that failed may not try that name again this minute, even with the right password.
    const again = await post('/api/auth/login', { username: target.name, password: target.password }, { ip: '198.51.100.1' })
    expect(again.status).toBe(429)
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0)
    // The owner, at an address without failures, signs in.
    expect((await post('/api/auth/login', { username: target.name, password: target.password }, { ip: '198.51.100.200' })).status).toBe(200)
    // A fresh address gets one guess at the locked name; after it fails, that address is refused too.
    expect((await post('/api/auth/login', { username: target.name, password: 'another guess' }, { ip: '198.51.100.201' })).status).toBe(401)
    expect((await post('/api/auth/login', { username: target.name, password: 'third guess' }, { ip: '198.51.100.201' })).status).toBe(429)
  })

  test('attempts being checked count as failures: parallel guesses from one address get no more than the limit', async () => {
    const user = await userWithPassword()
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('/api/auth/login', { username: user.name, password: 'parallel guess' }, { ip: '192.0.2.77' }).then((r) => r.status),
      ),
    )
    expect(statuses.filter((s) => s === 401)).toHaveLength(4)
    expect(statuses.filter((s) => s === 429)).toHaveLength(6)
  })
})

describe('an unknown name costs what a known one does', () => {
  test('the decoy checked for a name without a password is an argon2id hash with the parameters of a stored one', async () => {
    // A decoy argon2 could not read would be refused at once, and an unknown name would answer faster.
    const parameters = (phc: string) => phc.split('$').slice(0, 4).join('$')
    expect(parameters(DECOY_HASH)).toBe(parameters(await hashPassword('any password')))
    expect(DECOY_HASH.split('$').map((part) => part.length)).toEqual((await hashPassword('another')).split('$').map((part) => part.length))
    expect(await Bun.password.verify('any password', DECOY_HASH)).toBe(false)
  })
})

describe('sign-in under load', () => {
  test('more sign-ins than the password checker queues → 503 server_busy with Retry-After, never a 500; nothing is locked afterwards', async () => {
    const busy = await startTestApp({ PDFSHARE_RATE_LIMIT_LOGIN: '0' })
    const user = await busy.user()
    await setPassword(busy.ctx, { name: user.name, password: 'correct horse battery' })
    const attempt = (username: string, password: string) =>
      busy.call('POST', '/api/auth/login', {
        body: JSON.stringify({ username, password }),
        headers: { 'content-type': 'application/json' },
      })
    // Known and unknown names (the decoy hash) at once, far more than two running plus the queue.
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(i % 2 ? user.name : `nobody${i}`, 'wrong password')))
    const statuses = responses.map((r) => r.status)
    expect(statuses).not.toContain(500)
    expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([])
    const refused = responses.filter((r) => r.status === 503)
    expect(refused.length).toBeGreaterThan(0)
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await json(refused[0]!)).toEqual({ success: false, error: expect.stringContaining('retry'), code: 'server_busy' })
    // Afterwards: the right password works and an unknown name is the usual 401.
    expect((await attempt(user.name, 'correct horse battery')).status).toBe(200)
    expect((await attempt('nobody-at-all', 'whatever it is')).status).toBe(401)
  })
})

describe("a user's active tokens are capped (PDFSHARE_MAX_TOKENS_PER_USER)", () => {
  test('creating one past the cap → 403 quota_exceeded; revoked and expired tokens do not count', async () => {
    const capped = await startTestApp({ PDFSHARE_MAX_TOKENS_PER_USER: '3' })
    const user = await capped.user() // its first token
    let now = Date.now()
    const app = createApp({ ...capped.ctx, now: () => now })
    const create = (label: string, ttl = '30d') =>
      app.handle(
        new Request(`${BASE}/api/tokens`, {
          method: 'POST',
          body: JSON.stringify({ label, ttl }),
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        }),
      )
    expect((await create('short', '1m')).status).toBe(201)
    expect((await create('second')).status).toBe(201)
    const refused = await create('fourth')
    expect(refused.status).toBe(403)
    expect(await json(refused)).toEqual({ success: false, error: expect.stringContaining('at most 3'), code: 'quota_exceeded' })
    // Two minutes later the short-lived token has expired: it no longer counts.
    now += 2 * 60_000
    const third = await create('third')
    expect(third.status).toBe(201)
    expect((await create('fifth')).status).toBe(403)
    // Revoking one frees its place.
    expect((await capped.call('DELETE', `/api/tokens/${(await json(third)).data.id}`, { token: user.token })).status).toBe(200)
    expect((await create('sixth')).status).toBe(201)
  })

  test('a sign-in at the cap replaces the oldest sign-in session; with only API tokens it is refused', async () => {
    const capped = await startTestApp({ PDFSHARE_MAX_TOKENS_PER_USER: '2', PDFSHARE_TRUST_PROXY: '1' })
    const user = await capped.user() // one API token
    await setPassword(capped.ctx, { name: user.name, password: 'correct horse battery' })
    const signIn = () =>
      capped.call('POST', '/api/auth/login', {
        body: JSON.stringify({ username: user.name, password: 'correct horse battery' }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.9' },
      })
    const first = await json(await signIn())
    const second = await json(await signIn())
    expect(second.success).toBe(true)
    // The first session made room for the second; the API token was left alone.
    expect((await capped.call('GET', '/api/me', { token: first.data.token })).status).toBe(401)
    expect((await capped.call('GET', '/api/me', { token: second.data.token })).status).toBe(200)
    expect((await capped.call('GET', '/api/me', { token: user.token })).status).toBe(200)
    // Two API tokens and no session: nothing may be replaced, the sign-in is refused and says why.
    await capped.call('POST', '/api/auth/logout', { token: second.data.token })
    const created = await capped.call('POST', '/api/tokens', {
      token: user.token,
      body: JSON.stringify({ label: 'ci' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(created.status).toBe(201)
    const refused = await signIn()
    expect(refused.status).toBe(403)
    expect((await json(refused)).code).toBe('quota_exceeded')
  })
})

describe('/api/tokens: a user sees and revokes only their own tokens', () => {
  test('create (value shown once, working), list without values, revoke → refused on the next request', async () => {
    const user = await server.user()
    const created = await post('/api/tokens', { label: 'ci job', ttl: '30d' }, { token: user.token })
    expect(created.status).toBe(201)
    const { data } = await json(created)
    expect(data.label).toBe('ci job')
    expect(Math.round((Date.parse(data.expiresAt) - Date.now()) / 86_400_000)).toBe(30)
    expect(await status(data.token)).toBe(200)

    const listed = await json(await server.call('GET', '/api/tokens', { token: user.token }))
    expect(listed.data.map((row: { id: string }) => row.id)).toEqual([data.id, user.tokenId])
    expect(listed.data.find((row: { id: string }) => row.id === user.tokenId).current).toBe(true)
    expect(JSON.stringify(listed)).not.toContain(data.token)
    expect(JSON.stringify(listed)).not.toContain(user.token)

    expect((await server.call('DELETE', `/api/tokens/${data.id}`, { token: user.token })).status).toBe(200)
    expect(await status(data.token)).toBe(401)
    expect((await json(await server.call('GET', '/api/tokens', { token: user.token }))).data.map((row: { id: string }) => row.id)).toEqual([
      user.tokenId,
    ])
    // Revoking it again: it is no longer an active token.
    expect((await server.call('DELETE', `/api/tokens/${data.id}`, { token: user.token })).status).toBe(404)
  })

  test('"never" makes a token without expiry; bad labels and lifetimes are 400s', async () => {
    const user = await server.user()
    const { data } = await json(await post('/api/tokens', { label: 'forever', ttl: 'never' }, { token: user.token }))
    expect(data.expiresAt).toBeNull()
    for (const [body, message] of [
      [{ label: '' }, 'label must be 1 to 100 characters'],
      [{ label: '   ' }, 'label must not be blank'],
      [{ label: 'x'.repeat(101) }, 'label must be 1 to 100 characters'],
      [{ label: 'ok', ttl: 'soon' }, 'ttl must be a lifetime such as 90d, 12h, 30m, 2w, 1y, or "never"'],
      [{ label: 'ok', ttl: 30 }, 'ttl must be a lifetime such as 90d, 12h, 30m, 2w, 1y, or "never"'],
    ] as const) {
      const response = await post('/api/tokens', body, { token: user.token })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toBe(message)
    }
  })

  test('another user can neither list nor revoke them: 404 exactly like an unknown id', async () => {
    const alice = await server.user()
    const bob = await server.user()
    const bobsList = await json(await server.call('GET', '/api/tokens', { token: bob.token }))
    expect(bobsList.data.map((row: { id: string }) => row.id)).toEqual([bob.tokenId])
    const foreign = await server.call('DELETE', `/api/tokens/${alice.tokenId}`, { token: bob.token })
    const unknown = await server.call('DELETE', '/api/tokens/AAAAAAAAAAAAAAAAAAAAAA', { token: bob.token })
    expect(foreign.status).toBe(404)
    expect(await json(foreign)).toEqual(await json(unknown))
    expect(await status(alice.token)).toBe(200)
  })

  test('expired and revoked tokens are not listed; every route needs a token', async () => {
    const user = await server.user()
    const short = await json(await post('/api/tokens', { label: 'short', ttl: '1s' }, { token: user.token }))
    await Bun.sleep(1100)
    const ids = (await json(await server.call('GET', '/api/tokens', { token: user.token }))).data.map((row: { id: string }) => row.id)
    expect(ids).not.toContain(short.data.id)
    for (const [method, path] of [
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['DELETE', `/api/tokens/${user.tokenId}`],
      ['POST', '/api/auth/logout'],
    ] as const) {
      expect((await server.call(method, path)).status).toBe(401)
    }
  })
})
