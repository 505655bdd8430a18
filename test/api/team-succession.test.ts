import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { parseCommandLine } from '../../src/cli/args'
import { userCommand } from '../../src/cli/user'
import { startTestApp } from '../support/harness'
import { jsonBody } from '../support/sessions'
import { uploadPdf } from '../support/uploads'
import { data, refusal } from '../support/answers'

// A team whose only owner goes (docs/teams.md, When a team's only owner goes), through HTTP: an admin removes a
// user, and each team where they were the only owner gets the longest-standing editor (before any viewer) as
// its owner, in the audit log; a team left with no member is deleted with its files, and the answer says so.
const server = await startTestApp()
const root = await server.user('root') // the first user: the admin

async function newTeam(owner: { token: string }, name: string): Promise<{ id: string }> {
  return data(await server.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name }) }), 201)
}
/** Adds `user` with `role`, a member since `since` (ms): the order of seniority made explicit. */
async function addMember(owner: { token: string }, teamId: string, user: { id: string; name: string }, role: string, since: number) {
  await data(
    await server.call('POST', `/api/teams/${teamId}/members`, { token: owner.token, ...jsonBody({ username: user.name, role }) }),
    201,
  )
  const { teamMembers } = server.ctx.db.tables
  await server.ctx.db.orm
    .update(teamMembers)
    .set({ createdAt: since })
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, user.id)))
}
const rolesOf = async (teamId: string, asker: { token: string }) =>
  (await data(await server.call('GET', `/api/teams/${teamId}/members`, { token: asker.token }))).map(
    (m: { name: string; role: string }) => `${m.name}:${m.role}`,
  )
const teamToken = async (user: { token: string }, teamId: string): Promise<string> =>
  (await data(await server.call('POST', '/api/tokens', { token: user.token, ...jsonBody({ label: 'team', team: teamId }) }), 201)).token

describe("a team's only owner goes", () => {
  test('the longest-standing editor becomes owner, before any viewer; a team with no member left goes with its files', async () => {
    const olga = await server.user('olga')
    const vik = await server.user('vik')
    const edda = await server.user('edda')
    const emil = await server.user('emil')
    const otto = await server.user('otto')

    const sales = await newTeam(olga, 'Sales')
    await addMember(olga, sales.id, vik, 'viewer', 1_000) // the longest-standing, but a viewer
    await addMember(olga, sales.id, emil, 'editor', 3_000)
    await addMember(olga, sales.id, edda, 'editor', 2_000) // the longest-standing editor
    const viewersOnly = await newTeam(olga, 'Readers')
    await addMember(olga, viewersOnly.id, vik, 'viewer', 1_000)
    const twoOwners = await newTeam(olga, 'Board')
    await addMember(olga, twoOwners.id, otto, 'owner', 1_000)
    await addMember(olga, twoOwners.id, emil, 'editor', 500)
    const solo = await newTeam(olga, 'Solo')
    const soloFile = await uploadPdf(server, { token: await teamToken(olga, solo.id) })
    const salesFile = await uploadPdf(server, { token: await teamToken(olga, sales.id) })
    const { files } = server.ctx.db.tables
    const [soloRow] = await server.ctx.db.orm.select({ blobKey: files.blobKey }).from(files).where(eq(files.id, soloFile.id))

    // The solo team's file would be lost: not without deleteFiles, even though olga owns no personal file.
    expect(await refusal(await server.call('DELETE', `/api/admin/users/${olga.id}`, { token: root.token }))).toBe('409 conflict')
    expect(await rolesOf(sales.id, edda)).toEqual(['edda:editor', 'emil:editor', 'olga:owner', 'vik:viewer'])

    const removed = await data(await server.call('DELETE', `/api/admin/users/${olga.id}?deleteFiles=true`, { token: root.token }))
    expect(removed).toMatchObject({ id: olga.id, removedFiles: 0, deletedTeams: [{ id: solo.id, name: 'Solo', removedFiles: 1 }] })
    expect(
      removed.promotedOwners
        .map(
          (p: { teamId: string; name: string }) =>
            `${p.teamId === sales.id ? 'Sales' : p.teamId === viewersOnly.id ? 'Readers' : p.teamId}:${p.name}`,
        )
        .sort(),
    ).toEqual(['Readers:vik', 'Sales:edda'])

    expect(await rolesOf(sales.id, edda)).toEqual(['edda:owner', 'emil:editor', 'vik:viewer'])
    expect(await rolesOf(viewersOnly.id, vik)).toEqual(['vik:owner'])
    // A team that kept another owner is only one member shorter.
    expect(await rolesOf(twoOwners.id, otto)).toEqual(['emil:editor', 'otto:owner'])
    // The team's file stays the team's; the solo team is gone with its file and the file's bytes.
    expect((await data(await server.call('GET', `/api/files/${salesFile.id}`, { token: await teamToken(edda, sales.id) }))).id).toBe(
      salesFile.id,
    )
    expect(
      (await data(await server.call('GET', '/api/admin/teams', { token: root.token }))).map((t: { id: string }) => t.id),
    ).not.toContain(solo.id)
    expect(await server.ctx.db.orm.select().from(files).where(eq(files.id, soloFile.id))).toEqual([])
    expect(await server.ctx.blobs.stat(soloRow!.blobKey)).toBeUndefined()

    // The audit log: the new owner reads why in their own log; the admin reads the deleted team.
    const eddaLog = await data(await server.call('GET', '/api/audit?action=team.owner_promoted', { token: edda.token }))
    expect(eddaLog).toHaveLength(1)
    expect(eddaLog[0]).toMatchObject({ detail: { teamId: sales.id, userId: edda.id, role: 'owner', replaces: olga.id } })
    const deletedLog = await data(await server.call('GET', '/api/admin/audit?action=team.deleted', { token: root.token }))
    expect(deletedLog[0]).toMatchObject({ detail: { teamId: solo.id, name: 'Solo', removedFiles: 1, lastMemberRemoved: olga.id } })
  })

  test('the CLI removes the same way', async () => {
    const ann = await server.user('ann')
    const bob = await server.user('bob')
    const team = await newTeam(ann, 'Ops')
    await addMember(ann, team.id, bob, 'viewer', 1_000)
    const lines: string[] = []
    const io = { out: (text: string) => lines.push(text), err: (text: string) => lines.push(text) }
    await userCommand(server.ctx, parseCommandLine(['user', 'remove', 'ann']), io)
    const out = lines.join('\n')
    expect(out).toContain('removed user ann')
    expect(out).toContain('bob is now the owner of Ops')
    expect(await rolesOf(team.id, bob)).toEqual(['bob:owner'])
  })
})
