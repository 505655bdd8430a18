import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makePdf } from '../../scripts/support/pdf'
import { memberTeamId } from '../../src/core/teams/find-team'
import { form, startTestApp } from '../support/harness'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX, SAFARI_PHONE } from '../support/user-agents'
import { data, refusal } from '../support/answers'
import { jsonBody } from '../support/sessions'

// Teams (docs/teams.md), through HTTP on a real server: the scenario, the last-owner rule, non-members.
const server = await startTestApp()
const owner = await server.user('olga')
const viewer = await server.user('vik')
const editor = await server.user('edda')
const outsider = await server.user('otto')

/** A team token of `user`'s, issued through POST /api/tokens by their personal token. */
async function teamToken(user: { token: string }, teamId: string, scopes?: string[]): Promise<string> {
  const issued = await data(
    await server.call('POST', '/api/tokens', { token: user.token, ...jsonBody({ label: 'team', team: teamId, scopes }) }),
    201,
  )
  expect(issued.team).toBe(teamId)
  return issued.token
}
/** A counted view of a file's default link: its page, opened by a browser (another browser is another reader). */
const view = (file: { shareUrl: string }, browser = FIREFOX) =>
  server.call('GET', sharePathOf(file), { headers: { 'user-agent': browser } })

describe('teams', () => {
  test("the issue's scenario: roles hold, personal files stay private, a removed member is refused at once, a moved file keeps its id, URL and views", async () => {
    const personal = await uploadPdf(server, owner)
    const team = await data(await server.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name: 'Sales' }) }), 201)
    expect(team).toMatchObject({ name: 'Sales', role: 'owner' })
    // The editor is added by email, the viewer by user name.
    await server.ctx.db.orm
      .update(server.ctx.db.tables.users)
      .set({ email: 'edda@example.test' })
      .where(eq(server.ctx.db.tables.users.id, editor.id))
    const addedViewer = await data(
      await server.call('POST', `/api/teams/${team.id}/members`, { token: owner.token, ...jsonBody({ username: 'vik', role: 'viewer' }) }),
      201,
    )
    expect(addedViewer).toMatchObject({ userId: viewer.id, name: 'vik', role: 'viewer' })
    await data(
      await server.call('POST', `/api/teams/${team.id}/members`, {
        token: owner.token,
        ...jsonBody({ email: 'EDDA@example.test', role: 'editor' }),
      }),
      201,
    )
    const members = await data(await server.call('GET', `/api/teams/${team.id}/members`, { token: viewer.token }))
    expect(members.map((m: { name: string; role: string }) => `${m.name}:${m.role}`)).toEqual(['edda:editor', 'olga:owner', 'vik:viewer'])
    expect(
      (await data(await server.call('GET', '/api/teams', { token: editor.token }))).map((t: { id: string; role: string }) => [
        t.id,
        t.role,
      ]),
    ).toEqual([[team.id, 'editor']])

    // The editor uploads through a team token: the file is the team's.
    const editorTeam = await teamToken(editor, team.id)
    const viewerTeam = await teamToken(viewer, team.id)
    const shared = await uploadPdf(server, { token: editorTeam })
    // The viewer reads it through their team token, and may change nothing.
    expect((await data(await server.call('GET', `/api/files/${shared.id}`, { token: viewerTeam }))).id).toBe(shared.id)
    expect((await data(await server.call('GET', '/api/files', { token: viewerTeam }))).map((f: { id: string }) => f.id)).toEqual([
      shared.id,
    ])
    expect(
      await refusal(await server.call('PUT', `/api/files/${shared.id}`, { token: viewerTeam, ...jsonBody({ title: 'mine now' }) })),
    ).toBe('403 insufficient_scope')
    expect(await refusal(await server.call('DELETE', `/api/files/${shared.id}`, { token: viewerTeam }))).toBe('403 insufficient_scope')
    // The team's file is the team's: no member's personal token reaches it.
    for (const token of [owner.token, editor.token, viewer.token]) {
      expect(await refusal(await server.call('GET', `/api/files/${shared.id}`, { token }))).toBe('404 not_found')
    }
    // The owner's personal file is invisible to both team tokens and to the members' own tokens.
    for (const token of [editorTeam, viewerTeam, editor.token, viewer.token]) {
      expect(await refusal(await server.call('GET', `/api/files/${personal.id}`, { token }))).toBe('404 not_found')
      expect(await refusal(await server.call('GET', `/api/files/${personal.id}/content`, { token }))).toBe('404 not_found')
      const listed = await data(await server.call('GET', '/api/files', { token }))
      expect(listed.map((f: { id: string }) => f.id)).not.toContain(personal.id)
    }
    // A team token never acts as an admin (olga is the first user, an admin) nor manages its user's tokens.
    const ownerTeam = await teamToken(owner, team.id)
    expect(await refusal(await server.call('GET', '/api/admin/users', { token: ownerTeam }))).toBe('403 insufficient_scope')
    expect(await refusal(await server.call('GET', '/api/tokens', { token: ownerTeam }))).toBe('403 insufficient_scope')

    // The editor is removed: their team token is refused on its very next request.
    expect(
      await data(await server.call('PUT', `/api/files/${shared.id}`, { token: editorTeam, ...jsonBody({ title: 'edited' }) })),
    ).toMatchObject({
      title: 'edited',
    })
    await data(await server.call('DELETE', `/api/teams/${team.id}/members/${editor.id}`, { token: owner.token }))
    expect(await refusal(await server.call('GET', `/api/files/${shared.id}`, { token: editorTeam }))).toBe('401 unauthorized')
    expect(await refusal(await server.call('PUT', `/api/files/${shared.id}`, { token: editorTeam, ...jsonBody({ title: 'again' }) }))).toBe(
      '401 unauthorized',
    )
    // A lowered role also holds at once: the viewer made an editor may change the file, and then no more.
    await data(
      await server.call('PATCH', `/api/teams/${team.id}/members/${viewer.id}`, { token: owner.token, ...jsonBody({ role: 'editor' }) }),
    )
    await data(await server.call('PUT', `/api/files/${shared.id}`, { token: viewerTeam, ...jsonBody({ title: 'by vik' }) }))
    await data(
      await server.call('PATCH', `/api/teams/${team.id}/members/${viewer.id}`, { token: owner.token, ...jsonBody({ role: 'viewer' }) }),
    )
    expect(await refusal(await server.call('PUT', `/api/files/${shared.id}`, { token: viewerTeam, ...jsonBody({ title: 'again' }) }))).toBe(
      '403 insufficient_scope',
    )

    // A personal file moved into the team keeps its id, its share URL and its views.
    expect((await view(personal)).status).toBe(200)
    const before = await data(await server.call('GET', `/api/files/${personal.id}`, { token: owner.token }))
    expect(before.views).toBe(1)
    const moved = await data(
      await server.call('POST', `/api/files/${personal.id}/move`, { token: owner.token, ...jsonBody({ team: team.id }) }),
    )
    expect(moved).toMatchObject({ id: personal.id, shareUrl: personal.shareUrl, views: 1 })
    expect((await data(await server.call('GET', `/api/files/${personal.id}`, { token: viewerTeam }))).shareUrl).toBe(personal.shareUrl)
    expect(await refusal(await server.call('GET', `/api/files/${personal.id}`, { token: owner.token }))).toBe('404 not_found')
    expect((await view(personal, SAFARI_PHONE)).status).toBe(200)
    expect((await data(await server.call('GET', `/api/files/${personal.id}`, { token: viewerTeam }))).views).toBe(2)
    // Back out: not by a viewer, nor by a personal token (it does not reach the team's files); by an owner's team token.
    expect(
      await refusal(await server.call('POST', `/api/files/${personal.id}/move`, { token: viewerTeam, ...jsonBody({ team: null }) })),
    ).toBe('403 insufficient_scope')
    expect(
      await refusal(await server.call('POST', `/api/files/${personal.id}/move`, { token: owner.token, ...jsonBody({ team: null }) })),
    ).toBe('404 not_found')
    const back = await data(await server.call('POST', `/api/files/${personal.id}/move`, { token: ownerTeam, ...jsonBody({ team: null }) }))
    expect(back).toMatchObject({ id: personal.id, shareUrl: personal.shareUrl, views: 2 })
    expect((await data(await server.call('GET', `/api/files/${personal.id}`, { token: owner.token }))).id).toBe(personal.id)
  })

  test("a team's rooms, requests and notification channels are the team's: made through a team token, not seen through a personal one", async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name: 'Things' }) }), 201)
    await data(
      await server.call('POST', `/api/teams/${team.id}/members`, { token: owner.token, ...jsonBody({ username: 'vik', role: 'viewer' }) }),
      201,
    )
    const ownerTeam = await teamToken(owner, team.id)
    const viewerTeam = await teamToken(viewer, team.id)
    const room = await data(await server.call('POST', '/api/rooms', { token: ownerTeam, ...jsonBody({ name: 'Team room' }) }), 201)
    const request = await data(await server.call('POST', '/api/requests', { token: ownerTeam, ...jsonBody({ title: 'Send us' }) }), 201)
    const channel = await data(
      await server.call('POST', '/api/notifications/channels', {
        token: ownerTeam,
        ...jsonBody({ kind: 'ntfy', target: 'https://ntfy.example.test/team' }),
      }),
      201,
    )
    const ids = async (path: string, token: string) =>
      (await data(await server.call('GET', path, { token }))).map((row: { id: string }) => row.id)
    expect(await ids('/api/rooms', viewerTeam)).toEqual([room.id])
    expect(await ids('/api/requests', viewerTeam)).toEqual([request.id])
    for (const token of [owner.token, viewer.token]) {
      expect(await ids('/api/rooms', token)).not.toContain(room.id)
      expect(await ids('/api/requests', token)).not.toContain(request.id)
      expect(await ids('/api/notifications/channels', token)).not.toContain(channel.id)
      expect(await refusal(await server.call('GET', `/api/rooms/${room.id}`, { token }))).toBe('404 not_found')
    }
    // The viewer's team token reads them and changes none.
    expect(await refusal(await server.call('DELETE', `/api/rooms/${room.id}`, { token: viewerTeam }))).toBe('403 insufficient_scope')
    expect(await refusal(await server.call('GET', '/api/notifications/channels', { token: viewerTeam }))).toBe('403 insufficient_scope')
  })

  test('an editor may not take files out of the team; a viewer may not move files into it; a moved file leaves its old rooms', async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name: 'Moves' }) }), 201)
    await data(
      await server.call('POST', `/api/teams/${team.id}/members`, { token: owner.token, ...jsonBody({ username: 'edda', role: 'editor' }) }),
      201,
    )
    await data(
      await server.call('POST', `/api/teams/${team.id}/members`, { token: owner.token, ...jsonBody({ username: 'vik', role: 'viewer' }) }),
      201,
    )
    const editorTeam = await teamToken(editor, team.id)
    const inTeam = await uploadPdf(server, { token: editorTeam })
    expect(
      await refusal(await server.call('POST', `/api/files/${inTeam.id}/move`, { token: editorTeam, ...jsonBody({ team: null }) })),
    ).toBe('403 team_owner_only')
    const vikFile = await uploadPdf(server, viewer)
    expect(
      await refusal(await server.call('POST', `/api/files/${vikFile.id}/move`, { token: viewer.token, ...jsonBody({ team: team.id }) })),
    ).toBe('403 team_owner_only')
    // Another user's file: the file's 404.
    expect(
      await refusal(await server.call('POST', `/api/files/${vikFile.id}/move`, { token: outsider.token, ...jsonBody({ team: null }) })),
    ).toBe('404 not_found')
    // Into a team one is not in: the team's 404.
    const ottoFile = await uploadPdf(server, outsider)
    expect(
      await refusal(await server.call('POST', `/api/files/${ottoFile.id}/move`, { token: outsider.token, ...jsonBody({ team: team.id }) })),
    ).toBe('404 team_not_found')
    // The editor's file, in a room of theirs, moves into the team: the room no longer names it.
    const eddaFile = await uploadPdf(server, editor)
    const room = await data(
      await server.call('POST', '/api/rooms', { token: editor.token, ...jsonBody({ name: 'Deal', items: [{ fileId: eddaFile.id }] }) }),
      201,
    )
    await data(await server.call('POST', `/api/files/${eddaFile.id}/move`, { token: editor.token, ...jsonBody({ team: team.id }) }))
    expect((await data(await server.call('GET', `/api/rooms/${room.id}`, { token: editor.token }))).items).toEqual([])
  })

  test('the last owner can neither leave nor be demoted; a non-member gets 404 for the team, its members, its files and its tokens', async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name: 'Solo' }) }), 201)
    expect(await refusal(await server.call('DELETE', `/api/teams/${team.id}/members/${owner.id}`, { token: owner.token }))).toBe(
      '409 last_team_owner',
    )
    expect(
      await refusal(
        await server.call('PATCH', `/api/teams/${team.id}/members/${owner.id}`, { token: owner.token, ...jsonBody({ role: 'editor' }) }),
      ),
    ).toBe('409 last_team_owner')
    // With a second owner, the first may step down, and leave.
    await data(
      await server.call('POST', `/api/teams/${team.id}/members`, { token: owner.token, ...jsonBody({ username: 'edda', role: 'owner' }) }),
      201,
    )
    await data(
      await server.call('PATCH', `/api/teams/${team.id}/members/${owner.id}`, { token: owner.token, ...jsonBody({ role: 'viewer' }) }),
    )
    // A viewer may not change members, but may leave.
    expect(
      await refusal(
        await server.call('POST', `/api/teams/${team.id}/members`, {
          token: owner.token,
          ...jsonBody({ username: 'vik', role: 'viewer' }),
        }),
      ),
    ).toBe('403 team_owner_only')
    expect(await refusal(await server.call('DELETE', `/api/teams/${team.id}/members/${editor.id}`, { token: owner.token }))).toBe(
      '403 team_owner_only',
    )
    await data(await server.call('DELETE', `/api/teams/${team.id}/members/${owner.id}`, { token: owner.token }))
    expect(await refusal(await server.call('GET', `/api/teams/${team.id}`, { token: owner.token }))).toBe('404 team_not_found')
    // The remaining owner is the last one.
    expect(await refusal(await server.call('DELETE', `/api/teams/${team.id}/members/${editor.id}`, { token: editor.token }))).toBe(
      '409 last_team_owner',
    )
    // Already a member; nobody named.
    expect(
      await refusal(
        await server.call('POST', `/api/teams/${team.id}/members`, {
          token: editor.token,
          ...jsonBody({ username: 'edda', role: 'editor' }),
        }),
      ),
    ).toBe('409 conflict')
    expect(
      await refusal(await server.call('POST', `/api/teams/${team.id}/members`, { token: editor.token, ...jsonBody({ role: 'viewer' }) })),
    ).toBe('400 invalid_request')
    // Unknown accounts and members.
    expect(
      await refusal(
        await server.call('POST', `/api/teams/${team.id}/members`, {
          token: editor.token,
          ...jsonBody({ username: 'nobody', role: 'viewer' }),
        }),
      ),
    ).toBe('404 user_not_found')
    expect(await refusal(await server.call('DELETE', `/api/teams/${team.id}/members/${outsider.id}`, { token: editor.token }))).toBe(
      '404 team_not_found',
    )

    const editorTeam = await teamToken(editor, team.id)
    const file = await uploadPdf(server, { token: editorTeam })
    for (const [method, path] of [
      ['GET', `/api/teams/${team.id}`],
      ['GET', `/api/teams/${team.id}/members`],
      ['DELETE', `/api/teams/${team.id}`],
    ] as const) {
      expect(`${method} ${path} ${await refusal(await server.call(method, path, { token: outsider.token }))}`).toBe(
        `${method} ${path} 404 team_not_found`,
      )
    }
    expect(
      await refusal(await server.call('PATCH', `/api/teams/${team.id}`, { token: outsider.token, ...jsonBody({ name: 'Mine' }) })),
    ).toBe('404 team_not_found')
    expect(await refusal(await server.call('GET', `/api/files/${file.id}`, { token: outsider.token }))).toBe('404 not_found')
    expect(
      await refusal(await server.call('POST', '/api/tokens', { token: outsider.token, ...jsonBody({ label: 'x', team: team.id }) })),
    ).toBe('404 team_not_found')
    expect((await data(await server.call('GET', '/api/teams', { token: outsider.token }))).map((t: { id: string }) => t.id)).not.toContain(
      team.id,
    )
    // A team token reaches its own team only.
    const other = await data(await server.call('POST', '/api/teams', { token: editor.token, ...jsonBody({ name: 'Other' }) }), 201)
    expect(await refusal(await server.call('GET', `/api/teams/${other.id}`, { token: editorTeam }))).toBe('404 team_not_found')
    expect((await data(await server.call('GET', '/api/teams', { token: editorTeam }))).map((t: { id: string }) => t.id)).toEqual([team.id])
  })

  test("deleting a team deletes its files with their bytes, its tokens and memberships; its members' own files stay", async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: outsider.token, ...jsonBody({ name: 'Gone' }) }), 201)
    const own = await uploadPdf(server, outsider)
    const teamTokenOfOtto = await teamToken(outsider, team.id)
    const file = await uploadPdf(server, { token: teamTokenOfOtto })
    const { files } = server.ctx.db.tables
    const [row] = await server.ctx.db.orm.select({ blobKey: files.blobKey }).from(files).where(eq(files.id, file.id))
    expect(await server.ctx.blobs.stat(row!.blobKey)).toBeDefined()
    expect(await data(await server.call('DELETE', `/api/teams/${team.id}`, { token: outsider.token }))).toEqual({
      id: team.id,
      removedFiles: 1,
    })
    expect(await server.ctx.db.orm.select().from(files).where(eq(files.id, file.id))).toEqual([])
    expect(await server.ctx.blobs.stat(row!.blobKey)).toBeUndefined()
    expect(await refusal(await server.call('GET', '/api/files', { token: teamTokenOfOtto }))).toBe('401 unauthorized')
    expect((await data(await server.call('GET', `/api/files/${own.id}`, { token: outsider.token }))).id).toBe(own.id)
  })

  test("an Idempotency-Key is the acting owner's: reused across a personal and a team token, it never replays the other's answer", async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: outsider.token, ...jsonBody({ name: 'Keys' }) }), 201)
    const teamOfOtto = await teamToken(outsider, team.id)
    const bytes = makePdf() as Uint8Array<ArrayBuffer>
    const upload = (token: string) =>
      server.call('POST', '/api/files/upload', { token, body: form({ bytes }), headers: { 'idempotency-key': 'same-key' } })
    const personal = await data(await upload(outsider.token), 201)
    const teamUpload = await upload(teamOfOtto)
    expect(teamUpload.headers.get('idempotent-replayed')).toBeNull()
    const teamFile = await data(teamUpload, 201)
    expect(teamFile.id).not.toBe(personal.id)
    // Each owner's own retry is still a replay of its own answer.
    const again = await upload(teamOfOtto)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await data(again, 201)).id).toBe(teamFile.id)
    expect((await data(await server.call('GET', '/api/files', { token: teamOfOtto }))).map((f: { id: string }) => f.id)).toEqual([
      teamFile.id,
    ])
    // A sender's retried upload to the team's file request is kept under the team (it was a 500: the keys' owner had to be a user).
    const asked = await data(await server.call('POST', '/api/requests', { token: teamOfOtto, ...jsonBody({ title: 'Statements' }) }), 201)
    const send = () =>
      server.call('POST', `/u/${asked.url.split('/u/')[1]}/files`, { body: form({ bytes }), headers: { 'idempotency-key': 'sender-key' } })
    const sent = await send()
    expect(sent.status, await sent.clone().text()).toBe(201)
    expect((await send()).headers.get('idempotent-replayed')).toBe('true')
  })

  test("the CLI's --team names a team by id or name; a team upload counts against the team's quota, not the user's", async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: viewer.token, ...jsonBody({ name: 'Cli team' }) }), 201)
    expect(await memberTeamId(server.ctx, { userName: 'vik', team: 'Cli team' })).toBe(team.id)
    expect(await memberTeamId(server.ctx, { userName: 'vik', team: team.id })).toBe(team.id)
    await expect(memberTeamId(server.ctx, { userName: 'otto', team: 'Cli team' })).rejects.toMatchObject({ code: 'team_not_found' })
    // The team's quota, not the user's: one file allowed in the team.
    await server.ctx.db.orm.update(server.ctx.db.tables.teams).set({ maxFiles: 1 }).where(eq(server.ctx.db.tables.teams.id, team.id))
    const token = await teamToken(viewer, team.id)
    await uploadPdf(server, { token })
    const refused = await server.call('POST', '/api/files/upload', { token, body: form({ bytes: makePdf() as Uint8Array<ArrayBuffer> }) })
    expect(await refusal(refused)).toBe('403 quota_exceeded')
    await uploadPdf(server, viewer) // the user's own files are not the team's
  })
})
