import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { startTestApp } from '../support/harness'
import { mailsTo as mailsOf } from '../support/mail-outbox'
import { jsonBody } from '../support/sessions'
import { startSmtpServer } from '../support/smtp'
import { data, refusal } from '../support/answers'

// Inviting someone without an account into a team (docs/teams.md, Inviting someone without an account), through
// HTTP and a real SMTP server: the invitation is mailed, listed to the owners as pending, revocable, expiring;
// accepting it makes an account that is a member with the role. Without mail, the answer carries the link.
const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const server = await startTestApp({ PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` })
const worker = startMailWorker(server.ctx, { pollMs: 60_000 })!
afterAll(() => worker.stop())
const olga = await server.user('olga')
const vik = await server.user('vik')

type Member = { userId: string | null; name: string; role: string; pending?: { invitationId: string; email: string } }
const members = async (teamId: string, token: string): Promise<string[]> =>
  (await data(await server.call('GET', `/api/teams/${teamId}/members`, { token }))).map(
    (m: Member) => `${m.name}:${m.role}${m.pending ? ':pending' : ''}`,
  )
const invite = (teamId: string, token: string, email: string, role = 'editor') =>
  server.call('POST', `/api/teams/${teamId}/members`, { token, ...jsonBody({ email, role }) })
const accept = (on: typeof server, secret: string, username: string) =>
  on.call('POST', '/api/auth/accept-invitation', jsonBody({ invitation: secret, username, password: `${username}'s own password` }))
/** The secret of the last invitation link mailed to `to`. */
async function mailedSecret(to: string): Promise<{ mail: string; secret: string }> {
  const mail = (await mailsOf(server, smtp, worker, to)).at(-1)!
  return { mail, secret: /#\/join\/([A-Za-z0-9_-]+)/.exec(mail)![1]! }
}

describe('team invitations', () => {
  test('an address without an account is invited by mail; accepting makes an account that is a member with the role', async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: olga.token, ...jsonBody({ name: 'Sales' }) }), 201)
    await data(
      await server.call('POST', `/api/teams/${team.id}/members`, { token: olga.token, ...jsonBody({ username: 'vik', role: 'viewer' }) }),
      201,
    )
    const before = Date.now()
    const invited = await data(await invite(team.id, olga.token, 'New.Person@Example.org'), 201)
    expect(invited).toMatchObject({
      userId: null,
      name: 'new.person@example.org',
      role: 'editor',
      pending: { email: 'new.person@example.org', mailed: true, url: null },
    })
    const days = (Date.parse(invited.pending.expiresAt) - before) / 86_400_000
    expect(days).toBeGreaterThan(6.99)
    expect(days).toBeLessThan(7.01)

    // Listed as pending to the owners; not to a viewer (an address is not every member's to read).
    expect(await members(team.id, olga.token)).toEqual(['olga:owner', 'vik:viewer', 'new.person@example.org:editor:pending'])
    expect(await members(team.id, vik.token)).toEqual(['olga:owner', 'vik:viewer'])
    // Once per address; only owners invite.
    expect(await refusal(await invite(team.id, olga.token, 'new.person@example.org'))).toBe('409 conflict')
    expect(await refusal(await invite(team.id, vik.token, 'someone@example.org'))).toBe('403 team_owner_only')
    // A user name nobody has is still a 404: only an address can be invited.
    expect(
      await refusal(
        await server.call('POST', `/api/teams/${team.id}/members`, {
          token: olga.token,
          ...jsonBody({ username: 'nobody', role: 'viewer' }),
        }),
      ),
    ).toBe('404 user_not_found')

    const { mail, secret } = await mailedSecret('new.person@example.org')
    expect(mail).toContain('olga invites you to join the team Sales as an editor')
    const session = await data(await accept(server, secret, 'newbie'), 201)
    expect(
      (await data(await server.call('GET', '/api/teams', { token: session.token }))).map((t: { id: string; role: string }) => [
        t.id,
        t.role,
      ]),
    ).toEqual([[team.id, 'editor']])
    expect(await members(team.id, olga.token)).toEqual(['newbie:editor', 'olga:owner', 'vik:viewer'])
    expect(await refusal(await accept(server, secret, 'newbie2'))).toBe('404 not_found') // used once
    const log = await data(await server.call('GET', `/api/teams/${team.id}/audit?action=team.member_added`, { token: olga.token }))
    expect(log[0]).toMatchObject({
      actor: { name: 'newbie' },
      detail: { teamId: team.id, name: 'newbie', role: 'editor', invitationId: invited.pending.invitationId },
    })
  })

  test('an owner revokes an invitation; an expired one and one of a deleted team no longer work', async () => {
    const team = await data(await server.call('POST', '/api/teams', { token: olga.token, ...jsonBody({ name: 'Ops' }) }), 201)
    await data(
      await server.call('POST', `/api/teams/${team.id}/members`, { token: olga.token, ...jsonBody({ username: 'vik', role: 'viewer' }) }),
      201,
    )
    const revokedOne = await data(await invite(team.id, olga.token, 'revoked@example.org', 'viewer'), 201)
    const revoke = (token: string) =>
      server.call('DELETE', `/api/teams/${team.id}/invitations/${revokedOne.pending.invitationId}`, { token })
    expect(await refusal(await revoke(vik.token))).toBe('403 team_owner_only')
    expect((await data(await revoke(olga.token))).pending.email).toBe('revoked@example.org')
    expect(await refusal(await revoke(olga.token))).toBe('404 not_found')
    expect(await refusal(await accept(server, (await mailedSecret('revoked@example.org')).secret, 'revoked'))).toBe('404 not_found')

    const expiring = await data(await invite(team.id, olga.token, 'late@example.org'), 201)
    const { invitations } = server.ctx.db.tables
    await server.ctx.db.orm
      .update(invitations)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(invitations.id, expiring.pending.invitationId))
    expect(await members(team.id, olga.token)).toEqual(['olga:owner', 'vik:viewer'])
    expect(await refusal(await accept(server, (await mailedSecret('late@example.org')).secret, 'late'))).toBe('404 not_found')

    await data(await invite(team.id, olga.token, 'orphan@example.org'), 201)
    await data(await server.call('DELETE', `/api/teams/${team.id}`, { token: olga.token }))
    expect(await refusal(await accept(server, (await mailedSecret('orphan@example.org')).secret, 'orphan'))).toBe('404 not_found')
  })

  test('without mail, the answer carries the link for the owner to pass on', async () => {
    const quiet = await startTestApp()
    const owner = await quiet.user('ann')
    const team = await data(await quiet.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name: 'Quiet' }) }), 201)
    const invited = await data(
      await quiet.call('POST', `/api/teams/${team.id}/members`, {
        token: owner.token,
        ...jsonBody({ email: 'friend@example.org', role: 'viewer' }),
      }),
      201,
    )
    expect(invited.pending).toMatchObject({ mailed: false, email: 'friend@example.org' })
    expect(invited.pending.url).toContain('/app#/join/')
    // Listing never shows the link again.
    const listed = await data(await quiet.call('GET', `/api/teams/${team.id}/members`, { token: owner.token }))
    expect(JSON.stringify(listed)).not.toContain('#/join/')
    const session = await data(await accept(quiet, invited.pending.url.split('/').at(-1), 'friend'), 201)
    expect((await data(await quiet.call('GET', '/api/teams', { token: session.token }))).map((t: { role: string }) => t.role)).toEqual([
      'viewer',
    ])
  })
})
