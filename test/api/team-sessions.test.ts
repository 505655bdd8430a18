import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { startTestApp } from '../support/harness'
import { jsonBody, sessionOf } from '../support/sessions'
import { uploadPdf } from '../support/uploads'
import { data, refusal } from '../support/answers'

// The dashboard's team sessions (docs/teams.md, The dashboard), through HTTP on a real server: opened from a
// sign-in session only, for a team its user is in; checked on every request like a team token; ended with the session.
const server = await startTestApp()
const owner = await server.user('olga')
const member = await server.user('mia')

async function newTeam(name: string, members: { name: string; role: string }[]) {
  const team = await data(await server.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name }) }), 201)
  for (const { name: username, role } of members)
    await data(await server.call('POST', `/api/teams/${team.id}/members`, { token: owner.token, ...jsonBody({ username, role }) }), 201)
  return team
}
const openTeamSession = (token: string, teamId: string) => server.call('POST', `/api/teams/${teamId}/session`, { token })
const fileIds = async (token: string) => (await data(await server.call('GET', '/api/files', { token }))).map((f: { id: string }) => f.id)

describe('team sessions', () => {
  test("a session acts for the team with the member's role; personal and team files stay apart; not listed as a token", async () => {
    const team = await newTeam('Sales', [{ name: 'mia', role: 'viewer' }])
    const ownerSession = await sessionOf(server, 'olga')
    const memberSession = await sessionOf(server, 'mia')
    const personal = await uploadPdf(server, { token: ownerSession })

    const opened = await data(await openTeamSession(ownerSession, team.id), 201)
    expect(opened.team).toMatchObject({ id: team.id, name: 'Sales', role: 'owner' })
    const teamFile = await uploadPdf(server, { token: opened.token })
    expect(await fileIds(opened.token)).toEqual([teamFile.id])
    expect(await fileIds(ownerSession)).toEqual([personal.id])
    expect(await refusal(await server.call('GET', `/api/files/${personal.id}`, { token: opened.token }))).toBe('404 not_found')

    // A viewer's team session reads the team's file and may change nothing.
    const viewing = await data(await openTeamSession(memberSession, team.id), 201)
    expect(viewing.team.role).toBe('viewer')
    expect(await fileIds(viewing.token)).toEqual([teamFile.id])
    expect(await refusal(await server.call('DELETE', `/api/files/${teamFile.id}`, { token: viewing.token }))).toBe('403 insufficient_scope')
    // It holds neither `account` nor `admin`: it cannot manage its user's tokens.
    expect(await refusal(await server.call('GET', '/api/tokens', { token: viewing.token }))).toBe('403 insufficient_scope')

    // Listed nowhere as an API token.
    const listed = await data(await server.call('GET', '/api/tokens', { token: ownerSession }))
    expect(listed.map((t: { id: string }) => t.id)).not.toContain(opened.tokenId)
  })

  test('only a sign-in session of a member opens one', async () => {
    const team = await newTeam('Ops', [])
    expect(await refusal(await openTeamSession(owner.token, team.id))).toBe('403 reauthentication_required')
    expect(await refusal(await openTeamSession(await sessionOf(server, 'otto'), team.id))).toBe('404 team_not_found')
    expect(await refusal(await openTeamSession(await sessionOf(server, 'mia'), team.id))).toBe('404 team_not_found')
    // Nor from a team session or a team token.
    const ownerSession = await sessionOf(server, 'olga')
    const opened = await data(await openTeamSession(ownerSession, team.id), 201)
    expect(await refusal(await openTeamSession(opened.token, team.id))).toBe('403 reauthentication_required')
  })

  test("a removed member's team session is refused at once; a lowered role holds at once", async () => {
    const team = await newTeam('Support', [{ name: 'mia', role: 'editor' }])
    const memberSession = await sessionOf(server, 'mia')
    const opened = await data(await openTeamSession(memberSession, team.id), 201)
    const file = await uploadPdf(server, { token: opened.token })
    await data(
      await server.call('PATCH', `/api/teams/${team.id}/members/${member.id}`, { token: owner.token, ...jsonBody({ role: 'viewer' }) }),
    )
    expect(await refusal(await server.call('DELETE', `/api/files/${file.id}`, { token: opened.token }))).toBe('403 insufficient_scope')
    await data(await server.call('DELETE', `/api/teams/${team.id}/members/${member.id}`, { token: owner.token }))
    expect(await refusal(await server.call('GET', '/api/files', { token: opened.token }))).toBe('401 unauthorized')
    // The member's own session goes on working.
    expect(await fileIds(memberSession)).not.toContain(file.id)
  })

  test('signing out (either way) ends the team sessions opened from that session', async () => {
    const team = await newTeam('Legal', [])
    for (const signOut of ['logout', 'delete'] as const) {
      const session = await sessionOf(server, 'olga')
      const tokenId = JSON.parse(atob(session.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).jti
      const opened = await data(await openTeamSession(session, team.id), 201)
      expect(await fileIds(opened.token)).toEqual([])
      if (signOut === 'logout') await data(await server.call('POST', '/api/auth/logout', { token: session }))
      else await data(await server.call('DELETE', `/api/tokens/${tokenId}`, { token: session }))
      expect(await refusal(await server.call('GET', '/api/files', { token: opened.token }))).toBe('401 unauthorized')
      const [row] = await server.ctx.db.orm.all<{ revoked: number | null }>(
        sql`SELECT revoked_at AS revoked FROM tokens WHERE id = ${opened.tokenId}`,
      )
      expect(row?.revoked).not.toBeNull()
    }
  })

  test('the audit log names the person who acted and the team they acted for', async () => {
    const team = await newTeam('Audit', [{ name: 'mia', role: 'editor' }])
    const memberSession = await sessionOf(server, 'mia')
    const opened = await data(await openTeamSession(memberSession, team.id), 201)
    const file = await uploadPdf(server, { token: opened.token })
    await data(
      await server.call('POST', `/api/files/${file.id}/links`, { token: opened.token, ...jsonBody({ label: 'for the team' }) }),
      201,
    )
    await data(await server.call('POST', '/api/tokens', { token: memberSession, ...jsonBody({ label: 'personal' }) }), 201)
    const log = await data(await server.call('GET', '/api/audit', { token: memberSession }))
    const created = log.find((entry: { action: string }) => entry.action === 'link.created')
    expect(created).toMatchObject({ actor: { name: 'mia' }, detail: { actingTeam: team.id } })
    // What the person did for themselves names no team.
    const issued = log.find(
      (entry: { action: string; detail: { label?: string } }) => entry.action === 'token.issued' && entry.detail.label === 'personal',
    )
    expect(issued.detail.actingTeam).toBeUndefined()
  })
})
