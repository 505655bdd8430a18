import { describe, expect, test } from 'bun:test'
import { pruneAuditLog } from '../../src/core/audit/prune'
import { setPassword } from '../../src/core/accounts/users/users'
import { json, startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

// One trusted proxy hop: the X-Forwarded-For of the sign-ins below is the client's address.
const server = await startTestApp({ PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1', PDFSHARE_TRUST_PROXY: '1' })
const admin = await server.user('root') // the first user: an admin
const alice = await server.user('alice')
const bob = await server.user('bob')
await setPassword(server.ctx, { name: 'alice', password: 'correct horse battery' })

const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })
const call = (method: string, path: string, token: string, body?: unknown) =>
  server.call(method, path, { token, ...(body === undefined ? {} : jsonBody(body)) })
const entries = async (token: string, query = '', path = '/api/audit') => {
  const response = await server.call('GET', `${path}${query}`, { token })
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return JSON.parse(text) as {
    data: {
      action: string
      user: { id: string; name: string | null } | null
      actor: { id: string | null; name: string; via: string }
      address: string | null
      detail: Record<string, unknown>
    }[]
    nextCursor: string | null
  }
}
const signIn = (username: string, password: string) =>
  server.call('POST', '/api/auth/login', {
    ...jsonBody({ username, password }),
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
  })

describe('the audit log', () => {
  test("each kind of action is recorded with its facts, newest first, and the owner sees their account's entries", async () => {
    expect((await signIn('alice', 'not her password')).status).toBe(401)
    expect((await signIn('alice', 'correct horse battery')).status).toBe(200)
    const token = await json(await call('POST', '/api/tokens', alice.token, { label: 'ci', scopes: ['files:read'] }))
    expect((await call('DELETE', `/api/tokens/${token.data.id}`, alice.token)).status).toBe(200)
    const file = await uploadPdf(server, alice)
    const link = await json(
      await call('POST', `/api/files/${file.id}/links`, alice.token, { label: 'board', password: 'let me in please' }),
    )
    expect((await call('PATCH', `/api/links/${link.data.id}`, alice.token, { maxViews: 5, password: 'another secret one' })).status).toBe(
      200,
    )
    expect((await call('DELETE', `/api/links/${link.data.id}`, alice.token)).status).toBe(200)
    const hook = await json(
      await call('POST', '/api/webhooks', alice.token, { url: 'http://127.0.0.1:9/hook?token=receiver-secret', events: ['file.deleted'] }),
    )
    expect((await call('DELETE', `/api/webhooks/${hook.data.id}`, alice.token)).status).toBe(200)
    expect((await call('DELETE', `/api/files/${file.id}`, alice.token)).status).toBe(200)

    const { data } = await entries(alice.token)
    expect(data.map((entry) => entry.action)).toEqual([
      'file.deleted',
      'webhook.deleted',
      'webhook.created',
      'link.deleted',
      'link.changed',
      'link.created',
      'token.revoked',
      'token.issued',
      'sign_in.succeeded',
      'sign_in.failed',
    ])
    const byAction = Object.fromEntries(data.map((entry) => [entry.action, entry]))
    expect(byAction['sign_in.failed']).toMatchObject({
      user: { id: alice.id, name: 'alice' },
      actor: { id: null, name: 'anonymous', via: 'api' },
      detail: { method: 'password', name: 'alice' },
    })
    expect(byAction['sign_in.succeeded']).toMatchObject({
      actor: { id: alice.id, name: 'alice', via: 'api' },
      detail: { method: 'password' },
    })
    expect(byAction['token.issued']!.detail).toMatchObject({ tokenId: token.data.id, label: 'ci', scopes: ['files:read'] })
    expect(byAction['link.changed']!.detail).toMatchObject({
      linkId: link.data.id,
      changed: 'maxViews,password',
      maxViews: 5,
      hasPassword: true,
    })
    expect(byAction['webhook.created']!.detail).toEqual({ webhookId: hook.data.id, target: 'http://127.0.0.1:9', events: ['file.deleted'] })
    expect(byAction['file.deleted']!.detail).toEqual({ fileId: file.id, filename: file.filename })
    for (const entry of data) expect(entry.user?.id).toBe(alice.id)
  })

  test('never a password, token, secret or share link in the log', async () => {
    const rows = await server.ctx.db.orm.select().from(server.ctx.db.tables.auditEvents)
    const everything = JSON.stringify(rows)
    for (const secret of [
      'correct horse battery',
      'not her password',
      'let me in please',
      'another secret one',
      'receiver-secret',
      alice.token,
      '/s/',
    ]) {
      expect(everything).not.toContain(secret)
    }
  })

  test('a sign-in as a name nobody has keeps no name: it may be a password typed in the wrong field', async () => {
    expect((await signIn('hunter2isMyPassword', 'whatever it is')).status).toBe(401)
    const { data } = await entries(admin.token, '?action=sign_in.failed', '/api/admin/audit')
    expect(data[0]).toMatchObject({ user: null, detail: { method: 'password', name: null }, address: '203.0.113.9' })
    expect(JSON.stringify(data)).not.toContain('hunter2')
  })

  test("owners see only their own account's entries; admins see everyone's and may filter by user; others get 403", async () => {
    await call('POST', '/api/tokens', bob.token, { label: 'bob script' })
    const own = await entries(bob.token)
    expect(own.data.map((entry) => entry.action)).toEqual(['token.issued'])
    expect(JSON.stringify((await entries(alice.token)).data)).not.toContain('bob script')
    const all = await entries(admin.token, '', '/api/admin/audit')
    expect(new Set(all.data.map((entry) => (entry.user === null ? null : entry.user.name)))).toEqual(new Set(['alice', 'bob', null]))
    const onlyBob = await entries(admin.token, '?user=bob', '/api/admin/audit')
    expect(onlyBob.data.map((entry) => entry.detail.label)).toEqual(['bob script'])
    const refused = await server.call('GET', '/api/admin/audit', { token: alice.token })
    expect(refused.status).toBe(403)
    expect((await json(refused)).code).toBe('insufficient_scope')
  })

  test('filters and pages: by action, by time, and a cursor that never repeats or skips an entry', async () => {
    const everything = (await entries(admin.token, '?limit=100', '/api/admin/audit')).data
    const seen: string[] = []
    let cursor: string | null = ''
    while (cursor !== null) {
      const page = await entries(admin.token, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`, '/api/admin/audit')
      seen.push(...page.data.map((entry) => JSON.stringify(entry)))
      cursor = page.nextCursor
    }
    expect(seen).toEqual(everything.map((entry) => JSON.stringify(entry)))
    const deletions = await entries(alice.token, '?action=link.deleted')
    expect(deletions.data.map((entry) => entry.action)).toEqual(['link.deleted'])
    expect((await entries(alice.token, '?since=2999-01-01T00:00:00Z')).data).toEqual([])
    expect((await entries(alice.token, '?until=2000-01-01T00:00:00Z')).data).toEqual([])
    const bad = await server.call('GET', '/api/audit?action=everything', { token: alice.token })
    expect(bad.status).toBe(400)
    expect((await json(bad)).error).toStartWith('action must be one of sign_in.succeeded, sign_in.failed')
  })

  test('an owner sees the address of what they did and of sign-ins tried on their account, not that of an admin acting on it', async () => {
    const { data } = await entries(alice.token, '?action=sign_in.failed')
    expect(data[0]!.address).toBe('203.0.113.9')
    // An entry about alice written by another user (as an admin's action will be).
    const { recordAudit } = await import('../../src/core/audit/record')
    await recordAudit(server.ctx, {
      action: 'user.quota_set',
      actor: { via: 'api', userId: admin.id, name: 'root', address: '198.51.100.7' },
      userId: alice.id,
      detail: { maxFiles: 10 },
    })
    const [quota] = (await entries(alice.token, '?action=user.quota_set')).data
    expect(quota).toMatchObject({ actor: { id: admin.id, name: 'root' }, address: null, detail: { maxFiles: 10 } })
    const [asAdmin] = (await entries(admin.token, '?action=user.quota_set', '/api/admin/audit')).data
    expect(asAdmin!.address).toBe('198.51.100.7')
  })

  test('entries older than PDFSHARE_AUDIT_RETENTION days are deleted', async () => {
    const short = await startTestApp({ PDFSHARE_AUDIT_RETENTION: '30' })
    const carol = await short.user('carol')
    await short.call('POST', '/api/tokens', { token: carol.token, ...jsonBody({ label: 'old' }) })
    let now = Date.now() + 29 * 24 * 3600 * 1000
    short.ctx.now = () => now
    expect(await pruneAuditLog(short.ctx)).toBe(0)
    now += 2 * 24 * 3600 * 1000
    expect(await pruneAuditLog(short.ctx)).toBe(1)
    expect(await short.ctx.db.orm.select().from(short.ctx.db.tables.auditEvents)).toEqual([])
  })
})

test('a query without a filter filters nothing: an enum in a schema never fills in a default', async () => {
  const { paths } = await json(await server.call('GET', '/api/openapi.json'))
  expect(JSON.stringify(paths)).not.toContain('"default":"sign_in.succeeded"')
  expect(JSON.stringify(paths)).not.toContain('"default":"files:read"')
})
