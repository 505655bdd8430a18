import { describe, expect, test } from 'bun:test'
import { setPassword } from '../../src/core/accounts/users/users'
import { json, startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

const server = await startTestApp()
const root = await server.user('root') // the first user: the admin
const alice = await server.user('alice')
await setPassword(server.ctx, { name: 'alice', password: 'alice password' })

const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })
const asAdmin = (method: string, path: string, body?: unknown) =>
  server.call(method, `/api/admin${path}`, { token: root.token, ...(body === undefined ? {} : jsonBody(body)) })
const data = async (response: Response, status = 200) => {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}
const signIn = (username: string, password: string) => server.call('POST', '/api/auth/login', jsonBody({ username, password }))
const userNamed = async (name: string) => (await data(await asAdmin('GET', '/users'))).find((user: { name: string }) => user.name === name)

describe('admins', () => {
  test('the users list: role, state, usage, limits and last sign-in; never a password hash, a file or a token', async () => {
    await uploadPdf(server, alice)
    expect((await signIn('alice', 'alice password')).status).toBe(200)
    const users = await data(await asAdmin('GET', '/users'))
    expect(users.map((user: { name: string }) => user.name)).toEqual(['alice', 'root'])
    const listed = users.find((user: { name: string }) => user.name === 'alice')
    expect(listed).toMatchObject({
      admin: false,
      disabled: false,
      hasPassword: true,
      usage: { files: 1 },
      limits: { maxStorageBytes: null, maxFiles: null },
    })
    expect(Date.parse(listed.lastSignInAt)).toBeGreaterThan(Date.now() - 60_000)
    expect(users.find((user: { name: string }) => user.name === 'root')).toMatchObject({
      admin: true,
      lastSignInAt: null,
      hasPassword: false,
    })
    expect(JSON.stringify(users)).not.toMatch(/argon2|blob|\/s\//)
  })

  test('non-admins never get in: 403 insufficient_scope on every admin route', async () => {
    for (const [method, path] of [
      ['GET', '/users'],
      ['PATCH', `/users/${root.id}`],
      ['DELETE', `/users/${root.id}`],
      ['GET', '/tokens'],
      ['DELETE', `/tokens/${root.tokenId}`],
      ['GET', '/invitations'],
      ['POST', '/invitations'],
      ['GET', '/audit'],
    ] as const) {
      const body = method === 'GET' ? {} : jsonBody({ disabled: true }) // a GET carries no body
      const response = await server.call(method, `/api/admin${path}`, { token: alice.token, ...body })
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 403`)
      expect((await json(response)).code).toBe('insufficient_scope')
    }
    expect((await userNamed('root')).disabled).toBe(false)
  })

  test('disable: no sign-in (after the right password only, it says so), no token works; enable: both work again', async () => {
    const changed = await data(await asAdmin('PATCH', `/users/${alice.id}`, { disabled: true }))
    expect(changed.disabled).toBe(true)
    expect((await server.call('GET', '/api/me', { token: alice.token })).status).toBe(401)
    const refused = await signIn('alice', 'alice password')
    expect(refused.status).toBe(403)
    expect(await json(refused)).toEqual({
      success: false,
      error: 'This account is disabled; ask an admin to enable it',
      code: 'account_disabled',
    })
    expect((await signIn('alice', 'a wrong password')).status).toBe(401)
    await data(await asAdmin('PATCH', `/users/${alice.id}`, { disabled: false }))
    expect((await server.call('GET', '/api/me', { token: alice.token })).status).toBe(200)
    expect((await signIn('alice', 'alice password')).status).toBe(200)
  })

  test('limits and the admin role; the server always keeps one enabled admin', async () => {
    const limited = await data(await asAdmin('PATCH', `/users/${alice.id}`, { maxStorageBytes: 1_000_000, maxFiles: 10 }))
    expect(limited.limits).toEqual({ maxStorageBytes: 1_000_000, maxFiles: 10 })
    const me = await json(await server.call('GET', '/api/me', { token: alice.token }))
    expect(me.data.limits).toMatchObject({ maxStorageBytes: 1_000_000, maxFiles: 10 })
    expect((await data(await asAdmin('PATCH', `/users/${alice.id}`, { maxFiles: null }))).limits.maxFiles).toBeNull()
    // Root is the only admin: neither demoted nor disabled nor removed.
    for (const change of [{ admin: false }, { disabled: true }]) {
      const refused = await asAdmin('PATCH', `/users/${root.id}`, change)
      expect(refused.status).toBe(409)
      expect((await json(refused)).error).toBe('This would leave the server without an enabled admin; make another user an admin first')
    }
    expect((await asAdmin('DELETE', `/users/${root.id}`)).status).toBe(409)
    // With alice an admin too, root may step down; alice then sees the admin routes.
    await data(await asAdmin('PATCH', `/users/${alice.id}`, { admin: true }))
    expect((await server.call('GET', '/api/admin/users', { token: alice.token })).status).toBe(200)
    await data(await asAdmin('PATCH', `/users/${root.id}`, { admin: false }))
    expect((await server.call('GET', '/api/admin/users', { token: root.token })).status).toBe(403)
    await data(await server.call('PATCH', `/api/admin/users/${root.id}`, { token: alice.token, ...jsonBody({ admin: true }) }))
    await data(await asAdmin('PATCH', `/users/${alice.id}`, { admin: false }))
    const bad = await asAdmin('PATCH', `/users/${alice.id}`, { maxFiles: -1 })
    expect(bad.status).toBe(400)
    expect((await json(bad)).error).toBe('maxFiles must be a whole number from 0, or null for unlimited')
    expect((await asAdmin('PATCH', '/users/nosuchusernosuchuser00', { disabled: true })).status).toBe(404)
  })

  test('every token, never a value; revoking any of them', async () => {
    const tokens = await data(await asAdmin('GET', '/tokens?user=alice'))
    expect(tokens.length).toBeGreaterThan(0)
    for (const token of tokens)
      expect(Object.keys(token).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'label', 'scopes', 'status', 'user'])
    const target = tokens.find((token: { id: string }) => token.id === alice.tokenId)
    expect(target).toMatchObject({ user: { id: alice.id, name: 'alice' }, status: 'active', scopes: null })
    await data(await asAdmin('DELETE', `/tokens/${alice.tokenId}`))
    expect((await server.call('GET', '/api/me', { token: alice.token })).status).toBe(401)
    const audit = await data(await asAdmin('GET', '/audit?action=token.revoked'))
    expect(audit[0]).toMatchObject({
      user: { id: alice.id },
      actor: { id: root.id, name: 'root' },
      detail: { tokenId: alice.tokenId, by: 'admin' },
    })
  })

  test('an invitation: a link shown once, used once, within 7 days; the account it makes is signed in at once', async () => {
    const invitation = await data(await asAdmin('POST', '/invitations', { maxFiles: 5 }), 201)
    expect(invitation.url).toMatch(new RegExp(`^${server.config.publicUrl}/app#/join/[A-Za-z0-9_-]{22}$`))
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 24 * 3600 * 1000)
    const secret = invitation.url.split('#/join/')[1]
    const pending = await data(await asAdmin('GET', '/invitations'))
    expect(pending.map((one: { id: string }) => one.id)).toContain(invitation.id)
    expect(JSON.stringify(pending)).not.toContain(secret)
    const accept = (body: Record<string, unknown>) =>
      server.call('POST', '/api/auth/accept-invitation', jsonBody({ invitation: secret, ...body }))
    // A weak password, a taken name or a bad name claim nothing.
    expect((await json(await accept({ username: 'carol', password: 'short' }))).error).toBe('A password needs at least 8 characters')
    expect((await json(await accept({ username: 'alice', password: 'a long password' }))).error).toContain('already exists')
    expect((await accept({ username: 'bad name!', password: 'a long password' })).status).toBe(400)
    const session = await data(await accept({ username: 'carol', password: 'carol password' }), 201)
    expect(session.user.name).toBe('carol')
    const me = await json(await server.call('GET', '/api/me', { token: session.token }))
    expect(me.data).toMatchObject({ name: 'carol', admin: false, limits: { maxFiles: 5 } })
    // Used once.
    const again = await accept({ username: 'dave', password: 'dave password' })
    expect(again.status).toBe(404)
    expect((await json(again)).error).toStartWith('This invitation link is not valid')
    expect((await data(await asAdmin('GET', '/invitations'))).map((one: { id: string }) => one.id)).not.toContain(invitation.id)
    const added = (await data(await asAdmin('GET', '/audit?action=user.added')))[0]
    expect(added).toMatchObject({
      user: { name: 'carol' },
      actor: { name: 'carol' },
      detail: { invitationId: invitation.id, invitedBy: root.id },
    })
  })

  test('a revoked or expired invitation does not work', async () => {
    const revoked = await data(await asAdmin('POST', '/invitations', {}), 201)
    await data(await asAdmin('DELETE', `/invitations/${revoked.id}`))
    const accept = (url: string) =>
      server.call(
        'POST',
        '/api/auth/accept-invitation',
        jsonBody({ invitation: url.split('#/join/')[1], username: 'erin', password: 'erin password' }),
      )
    expect((await accept(revoked.url)).status).toBe(404)
    const expiring = await data(await asAdmin('POST', '/invitations', { admin: true }), 201)
    const realNow = server.ctx.now
    server.ctx.now = () => realNow() + 7 * 24 * 3600 * 1000 + 1
    try {
      expect(
        (
          await server.callInProcess(
            'POST',
            '/api/auth/accept-invitation',
            jsonBody({ invitation: expiring.url.split('#/join/')[1], username: 'erin', password: 'erin password' }),
          )
        ).status,
      ).toBe(404)
    } finally {
      server.ctx.now = realNow
    }
    expect(await userNamed('erin')).toBeUndefined()
  })

  test('removing a user: not one who owns files unless asked (409, said plainly), then with their files', async () => {
    const refused = await asAdmin('DELETE', `/users/${alice.id}`)
    expect(refused.status).toBe(409)
    expect((await json(refused)).error).toBe(
      'alice owns 1 file(s); remove them together with the user (?deleteFiles=true), or keep the user and disable them',
    )
    expect(await data(await asAdmin('DELETE', `/users/${alice.id}?deleteFiles=true`))).toEqual({
      id: alice.id,
      removedFiles: 1,
      deletedTeams: [],
      promotedOwners: [],
    })
    expect(await userNamed('alice')).toBeUndefined()
  })
})

describe('the last enabled admin, under concurrent changes', () => {
  test('two admins removing, demoting or disabling each other at once: one succeeds, the other gets 409 conflict, one admin stays', async () => {
    // A server of its own, so its enabled admins are the two of each round.
    const own = await startTestApp()
    let survivor = await own.user('first') // the first user: the admin
    const changes = [
      { method: 'DELETE', body: undefined },
      { method: 'PATCH', body: { admin: false } },
      { method: 'PATCH', body: { disabled: true } },
    ] as const
    const answered: string[] = []
    for (let round = 0; round < 21; round++) {
      const other = await own.user(`admin${round}`)
      await data(await own.call('PATCH', `/api/admin/users/${other.id}`, { token: survivor.token, ...jsonBody({ admin: true }) }))
      // Both tokens used once already, so neither request of the pair waits on a first signature check.
      for (const admin of [survivor, other]) await data(await own.call('GET', '/api/me', { token: admin.token }))
      const { method, body } = changes[round % changes.length]!
      const pair = [survivor, other]
      const answers = await Promise.all(
        pair.map((actor, i) =>
          own.call(method, `/api/admin/users/${pair[1 - i]!.id}`, { token: actor.token, ...(body && jsonBody(body)) }),
        ),
      )
      const codes = await Promise.all(answers.map(async (answer) => `${answer.status} ${(await json(answer)).code ?? ''}`.trim()))
      const label = `round ${round}, ${method} ${JSON.stringify(body ?? {})}: ${codes.join(', ')}`
      expect(
        codes.filter((code) => code === '200'),
        label,
      ).toHaveLength(1)
      // The other is refused by the rule (409), or, when its own account was already changed, as a caller (401, 403).
      expect(
        codes.find((code) => code !== '200'),
        label,
      ).toMatch(/^(409 conflict|401 unauthorized|403 insufficient_scope)$/)
      answered.push(...codes)
      survivor = pair[codes.indexOf('200')]! // who changed the other
      const users = await data(await own.call('GET', '/api/admin/users', { token: survivor.token }))
      const enabledAdmins = users.filter((user: { admin: boolean; disabled: boolean }) => user.admin && !user.disabled)
      expect(enabledAdmins.map((user: { id: string }) => user.id)).toEqual([survivor.id])
    }
    // The pairs did race: refusals of the rule itself, not only of a caller already changed.
    expect(answered.filter((code) => code === '409 conflict').length).toBeGreaterThan(0)
  })
})
