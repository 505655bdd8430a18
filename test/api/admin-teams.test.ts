import { describe, expect, test } from 'bun:test'
import { startTestApp } from '../support/harness'
import { jsonBody } from '../support/sessions'
import { uploadPdf } from '../support/uploads'
import { data, refusal } from '../support/answers'

// Admins and teams (docs/teams.md, Quotas), through HTTP: every team with its usage, a team's limits set by an
// admin and holding on the team's next upload, and never a team's files.
const server = await startTestApp()
const root = await server.user('root') // the first user: the admin
const olga = await server.user('olga')

const asAdmin = (method: string, path: string, body?: unknown) =>
  server.call(method, `/api/admin${path}`, { token: root.token, ...(body === undefined ? {} : jsonBody(body)) })

describe('admins and teams', () => {
  test("the teams with usage and limits; an admin's limit holds on the team's next upload; never a file", async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: olga.token, ...jsonBody({ name: 'Sales' }) }), 201)
    const teamToken = (
      await data(await server.call('POST', '/api/tokens', { token: olga.token, ...jsonBody({ label: 'team', team: team.id }) }), 201)
    ).token
    const file = await uploadPdf(server, { token: teamToken })
    await uploadPdf(server, olga) // a personal file: not the team's usage

    const [listed] = await data(await asAdmin('GET', '/teams'))
    expect(listed).toMatchObject({
      id: team.id,
      name: 'Sales',
      members: 1,
      owners: 1,
      usage: { files: 1, bytes: file.fileSize },
      limits: { maxStorageBytes: null, maxFiles: null },
    })
    expect(JSON.stringify(listed)).not.toContain(file.id)

    const limited = await data(await asAdmin('PATCH', `/teams/${team.id}`, { maxFiles: 1 }))
    expect(limited.limits).toEqual({ maxStorageBytes: null, maxFiles: 1 })
    expect(await refusal(await server.call('POST', '/api/files/upload', { token: teamToken, body: await uploadForm() }))).toBe(
      '403 quota_exceeded',
    )
    // The owner's personal uploads are not the team's.
    await uploadPdf(server, olga)
    await data(await asAdmin('PATCH', `/teams/${team.id}`, { maxFiles: null, maxStorageBytes: 10_000_000 }))
    await uploadPdf(server, { token: teamToken })

    // The admin still reaches none of the team's files.
    expect(await refusal(await server.call('GET', `/api/files/${file.id}`, { token: root.token }))).toBe('404 not_found')
    const audit = await data(await server.call('GET', '/api/audit?action=team.quota_set', { token: root.token }))
    expect(audit[0]).toMatchObject({ action: 'team.quota_set', detail: { teamId: team.id, maxBytes: 10_000_000, maxFiles: null } })
  })

  test('only admins; an unknown team and a bad limit are refused', async () => {
    expect(await refusal(await server.call('GET', '/api/admin/teams', { token: olga.token }))).toBe('403 insufficient_scope')
    expect(
      await refusal(
        await server.call('PATCH', '/api/admin/teams/nosuchteamnosuchteam', { token: olga.token, ...jsonBody({ maxFiles: 1 }) }),
      ),
    ).toBe('403 insufficient_scope')
    expect(await refusal(await asAdmin('PATCH', '/teams/nosuchteamnosuchteam', { maxFiles: 1 }))).toBe('404 team_not_found')
    const [team] = await data(await asAdmin('GET', '/teams'))
    expect(await refusal(await asAdmin('PATCH', `/teams/${team.id}`, { maxFiles: -1 }))).toBe('400 invalid_request')
    expect(await refusal(await asAdmin('PATCH', `/teams/${team.id}`, {}))).toBe('400 invalid_request')
    // An admin's team token is no admin.
    await data(await server.call('POST', '/api/teams', { token: root.token, ...jsonBody({ name: 'Admins' }) }), 201)
    const admins = (await data(await asAdmin('GET', '/teams'))).find((t: { name: string }) => t.name === 'Admins')
    const rootTeam = (
      await data(await server.call('POST', '/api/tokens', { token: root.token, ...jsonBody({ label: 'team', team: admins.id }) }), 201)
    ).token
    expect(await refusal(await server.call('GET', '/api/admin/teams', { token: rootTeam }))).toBe('403 insufficient_scope')
  })
})

async function uploadForm(): Promise<FormData> {
  const { makePdf } = await import('../../scripts/support/pdf')
  const form = new FormData()
  form.append('file', new Blob([makePdf({ pages: 1 })], { type: 'application/pdf' }), 'more.pdf')
  return form
}
