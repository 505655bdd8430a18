import { afterAll, describe, expect, test } from 'bun:test'
import { startTestApp } from '../support/harness'
import { oidcSettings, signInWithSso, startOidcProvider } from '../support/oidc'
import { jsonBody } from '../support/sessions'

// Single sign-on groups mapped to teams (docs/teams.md, Single sign-on groups), through a real OpenID Connect
// provider: at each sign-in the mapped memberships follow the groups; manual memberships and the last owner stay.
const SALES = 'sales-team-id-0001'
const OPS = 'ops-team-id-0001'
const provider = await startOidcProvider('https://pdf.example.test/base/auth/oidc/callback') // the harness's public URL
afterAll(() => provider.stop())
const server = await startTestApp({
  ...oidcSettings(provider.issuer),
  PDFSHARE_OIDC_TEAM_GROUPS: `sales=${SALES}:editor, sales-leads=${SALES}:owner, ops=${OPS}:viewer, gone=no-such-team-0001:viewer`,
})
const olga = await server.user('olga')

/** A team made with a known id, so the setting can name it before it exists; olga is its owner. */
async function teamWithId(id: string, name: string) {
  const { owners, teams, teamMembers } = server.ctx.db.tables
  const now = Date.now()
  await server.ctx.db.orm.batch([
    server.ctx.db.orm.insert(owners).values({ id, kind: 'team' }),
    server.ctx.db.orm.insert(teams).values({ id, name, createdAt: now, updatedAt: now, maxBytes: null, maxFiles: null }),
    server.ctx.db.orm.insert(teamMembers).values({ teamId: id, userId: olga.id, role: 'owner', createdAt: now }),
  ])
}
await teamWithId(SALES, 'Sales')
await teamWithId(OPS, 'Ops')

const setGroups = async (login: string, groups: string[]) =>
  expect((await fetch(`${provider.issuer}/test-groups`, { method: 'POST', body: JSON.stringify({ login, groups }) })).status).toBe(200)
async function signIn(login: string): Promise<{ token: string; user: { id: string; name: string } }> {
  const result = await signInWithSso(server, login)
  expect(result.status, result.page).toBe(303)
  return result.session!
}
const rolesIn = async (teamId: string): Promise<string[]> => {
  const answer = await server.call('GET', `/api/teams/${teamId}/members`, { token: olga.token })
  return ((await answer.json()) as { data: { name: string; role: string }[] }).data.map((m) => `${m.name}:${m.role}`)
}

describe('single sign-on groups → teams', () => {
  test('a mapped group adds, raises and removes memberships at each sign-in; a manual one is never touched', async () => {
    await setGroups('carl@example.com', ['sales', 'ops'])
    const carl = await signIn('carl@example.com')
    expect(await rolesIn(SALES)).toEqual(['carl:editor', 'olga:owner'])
    expect(await rolesIn(OPS)).toEqual(['carl:viewer', 'olga:owner'])
    const log = await server.call('GET', `/api/teams/${SALES}/audit?action=team.member_added`, { token: olga.token })
    expect(((await log.json()) as { data: unknown[] }).data[0]).toMatchObject({
      actor: { name: 'carl' },
      detail: { teamId: SALES, role: 'editor', via: 'sso group', group: 'sales' },
    })

    // The highest role a group gives wins; a group that is gone takes its membership away.
    await setGroups('carl@example.com', ['sales', 'sales-leads'])
    await signIn('carl@example.com')
    expect(await rolesIn(SALES)).toEqual(['carl:owner', 'olga:owner'])
    expect(await rolesIn(OPS)).toEqual(['olga:owner'])

    // An owner's own change makes the membership manual: the groups no longer touch it.
    const patched = await server.call('PATCH', `/api/teams/${SALES}/members/${carl.user.id}`, {
      token: olga.token,
      ...jsonBody({ role: 'viewer' }),
    })
    expect(patched.status).toBe(200)
    await setGroups('carl@example.com', [])
    await signIn('carl@example.com')
    expect(await rolesIn(SALES)).toEqual(['carl:viewer', 'olga:owner'])
  })

  test('a manual membership stays whatever the groups; the last owner is never demoted or removed', async () => {
    // Dora is added by hand as a viewer of Ops; her groups would make her an editor of Sales only.
    await setGroups('dora@example.com', [])
    const dora = await signIn('dora@example.com')
    const added = await server.call('POST', `/api/teams/${OPS}/members`, {
      token: olga.token,
      ...jsonBody({ username: 'dora', role: 'viewer' }),
    })
    expect(added.status).toBe(201)
    await setGroups('dora@example.com', ['ops', 'sales-leads'])
    await signIn('dora@example.com')
    expect(await rolesIn(OPS)).toContain('dora:viewer')
    expect(await rolesIn(SALES)).toContain('dora:owner')

    // Dora becomes Sales's only owner (olga leaves), then loses the group: she stays its owner.
    const left = await server.call('DELETE', `/api/teams/${SALES}/members/${olga.id}`, { token: olga.token })
    expect(left.status).toBe(200)
    await setGroups('dora@example.com', [])
    await signIn('dora@example.com')
    const members = await server.call('GET', `/api/teams/${SALES}/members`, { token: dora.token })
    expect(((await members.json()) as { data: { name: string; role: string }[] }).data.map((m) => `${m.name}:${m.role}`)).toContain(
      'dora:owner',
    )
  })
})
