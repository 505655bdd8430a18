import { describe, expect, test } from 'bun:test'
import { startTestApp } from '../support/harness'
import { jsonBody } from '../support/sessions'
import { uploadPdf } from '../support/uploads'
import { refusal } from '../support/answers'

// A team's log (docs/teams.md, The team's log), through HTTP: its owners read the entries made for the team or
// naming it, paged, never another team's; editors, viewers, non-members and tokens without teams:write do not.
const server = await startTestApp()
const olga = await server.user('olga')
const vik = await server.user('vik')
const edda = await server.user('edda')
const otto = await server.user('otto')

async function data(response: Response, status = 200) {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text)
}
const post = async (token: string, path: string, body: unknown) =>
  (await data(await server.call('POST', path, { token, ...jsonBody(body) }), 201)).data
const teamToken = async (user: { token: string }, teamId: string, scopes?: string[]): Promise<string> =>
  (await post(user.token, '/api/tokens', { label: 'team', team: teamId, scopes })).token
const log = (token: string, teamId: string, query = '') => server.call('GET', `/api/teams/${teamId}/audit${query}`, { token })
type Entry = { id: string; action: string; actor: { name: string }; address: string | null; detail: Record<string, unknown> }

describe("a team's log", () => {
  test("its owners read the team's entries, paged; never another team's, never a colleague's address", async () => {
    const team = await post(olga.token, '/api/teams', { name: 'Sales' })
    await post(olga.token, `/api/teams/${team.id}/members`, { username: 'vik', role: 'viewer' })
    await post(olga.token, `/api/teams/${team.id}/members`, { username: 'edda', role: 'editor' })
    // Another team's work, by a member of both: none of it is Sales's.
    const other = await post(otto.token, '/api/teams', { name: 'Other' })
    await post(otto.token, `/api/teams/${other.id}/members`, { username: 'edda', role: 'editor' })
    const otherFile = await uploadPdf(server, { token: await teamToken(edda, other.id) })
    await server.call('DELETE', `/api/files/${otherFile.id}`, { token: await teamToken(edda, other.id) })
    // Edda's work for Sales, through a team token; and her own, through her personal token.
    const eddaSales = await teamToken(edda, team.id)
    const file = await uploadPdf(server, { token: eddaSales })
    await post(eddaSales, `/api/files/${file.id}/links`, {})
    expect((await server.call('DELETE', `/api/files/${file.id}`, { token: eddaSales })).status).toBe(200)
    const own = await uploadPdf(server, edda)
    await server.call('DELETE', `/api/files/${own.id}`, { token: edda.token })

    const page = await data(await log(olga.token, team.id))
    const entries: Entry[] = page.data
    expect(entries.map((e) => e.action)).toEqual([
      'file.deleted',
      'link.created',
      'token.issued',
      'team.member_added',
      'team.member_added',
      'team.created',
    ])
    expect(entries[0]).toMatchObject({ actor: { name: 'edda' }, address: null, detail: { fileId: file.id, actingTeam: team.id } })
    expect(entries.at(-1)).toMatchObject({ actor: { name: 'olga' }, detail: { teamId: team.id } })
    expect(entries.at(-1)!.address).not.toBeNull() // the reader's own action
    expect(JSON.stringify(entries)).not.toContain(other.id)
    expect(JSON.stringify(entries)).not.toContain(own.id)

    // Paged like the account's log: two pages of 3, in order, then none.
    const first = await data(await log(olga.token, team.id, '?limit=3'))
    const second = await data(await log(olga.token, team.id, `?limit=3&cursor=${first.nextCursor}`))
    expect([...first.data, ...second.data].map((e: Entry) => e.id)).toEqual(entries.map((e) => e.id))
    expect(second.nextCursor).toBeNull()
    expect((await data(await log(olga.token, team.id, '?action=team.member_added'))).data).toHaveLength(2)

    // An owner's team token reads its own team's log, and not another team's.
    const olgaSales = await teamToken(olga, team.id)
    expect((await data(await log(olgaSales, team.id))).data.length).toBeGreaterThan(0)
    expect(await refusal(await log(olgaSales, other.id))).toBe('404 team_not_found')
  })

  test('editors, viewers, non-members and tokens without teams:write are refused', async () => {
    const team = await post(olga.token, '/api/teams', { name: 'Closed' })
    await post(olga.token, `/api/teams/${team.id}/members`, { username: 'vik', role: 'viewer' })
    await post(olga.token, `/api/teams/${team.id}/members`, { username: 'edda', role: 'editor' })
    expect(await refusal(await log(vik.token, team.id))).toBe('403 team_owner_only')
    expect(await refusal(await log(edda.token, team.id))).toBe('403 team_owner_only')
    // An editor's team token never holds teams:write (the role takes it away), so it is refused on the scope.
    expect(await refusal(await log(await teamToken(edda, team.id), team.id))).toBe('403 insufficient_scope')
    expect(await refusal(await log(otto.token, team.id))).toBe('404 team_not_found')
    expect(await refusal(await log(otto.token, 'no-such-team'))).toBe('404 team_not_found')
    const readOnly = await post(olga.token, '/api/tokens', { label: 'read', scopes: ['files:read'] })
    expect(await refusal(await log(readOnly.token, team.id))).toBe('403 insufficient_scope')
  })
})
