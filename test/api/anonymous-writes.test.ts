import { describe, expect, test } from 'bun:test'
import { count } from 'drizzle-orm'
import { json, startTestApp } from '../support/harness'

// Routes anyone may call that write rows (security issue 33, item 13): a client may not fill the audit log or the
// passkey challenges by calling them in a loop. One trusted proxy hop, so X-Forwarded-For names the client.

const server = await startTestApp({
  PDFSHARE_TRUST_PROXY: '1',
  // Single sign-on set up; the callbacks below never reach the issuer (no sign-in was started).
  PDFSHARE_OIDC_ISSUER: 'http://127.0.0.1:9/',
  PDFSHARE_OIDC_CLIENT_ID: 'pdfshare',
  PDFSHARE_RATE_LIMIT_LOGIN: '10',
})
const root = await server.user('root')
// The middle of a minute, so the loops below stay in one window of the per-minute limits.
const MINUTE = 60_000
const start = Math.floor(Date.now() / MINUTE) * MINUTE + 30_000
server.ctx.now = () => start

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } })
const noSignInStarted = async () => {
  const entries = (await json(await server.call('GET', '/api/admin/audit?action=sign_in.failed&limit=100', { token: root.token }))).data
  return entries.filter((entry: { detail: { reason: string } }) => entry.detail.reason === 'no sign-in started in this browser').length
}

describe('anonymous routes that write rows are limited per client', () => {
  test('150 single sign-on callbacks without a started sign-in: one audit entry a minute, then 429 pages', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 150; i++)
      statuses.push((await server.call('GET', '/auth/oidc/callback?code=x&state=y', from('198.51.100.7'))).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400))
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true)
    const refused = await server.call('GET', '/auth/oidc/callback?code=x&state=y', from('198.51.100.7'))
    expect(refused.headers.get('retry-after')).toBe('30')
    expect(refused.headers.get('content-type')).toContain('text/html')
    expect(await refused.text()).toContain('Too many sign-in attempts')
    expect(await noSignInStarted()).toBe(1)

    // Another client still gets its page, and its one entry; the first client gets one more the next minute.
    expect((await server.call('GET', '/auth/oidc/callback', from('198.51.100.8'))).status).toBe(400)
    expect(await noSignInStarted()).toBe(2)
    server.ctx.now = () => start + MINUTE
    try {
      expect((await server.call('GET', '/auth/oidc/callback', from('198.51.100.7'))).status).toBe(400)
      expect(await noSignInStarted()).toBe(3)
    } finally {
      server.ctx.now = () => start
    }
  })

  test('300 passkey prompts from one client: 10 challenges kept, the rest refused with 429', async () => {
    const { webauthnChallenges } = server.ctx.db.tables
    const statuses: number[] = []
    for (let i = 0; i < 300; i++) statuses.push((await server.call('POST', '/api/auth/passkey/options', from('203.0.113.5'))).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true)
    const refused = await server.call('POST', '/api/auth/passkey/options', from('203.0.113.5'))
    expect(await json(refused)).toMatchObject({ code: 'rate_limited' })
    expect(refused.headers.get('retry-after')).toBe('30')
    const [kept] = await server.ctx.db.orm.select({ n: count() }).from(webauthnChallenges)
    expect(kept!.n).toBe(10)
    expect((await server.call('POST', '/api/auth/passkey/options', from('203.0.113.6'))).status).toBe(200)
  })
})
