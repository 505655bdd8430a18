import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { addUser, setPassword } from '../../src/core/accounts/users/users'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { json, startTestApp } from '../support/harness'
import { mailsTo as mailsOf } from '../support/mail-outbox'
import { oidcSettings, signInWithSso, startOidcProvider } from '../support/oidc'
import { jsonBody, PASSWORD, sessionOf } from '../support/sessions'
import { startSmtpServer } from '../support/smtp'

// An admin manages accounts, never their contents (docs/api.md, Admins): no change an admin makes gives anyone
// a way into another user's account. The two ways there were: the reset email and the single sign-on link.
// Through a real SMTP server and a real OpenID Connect provider.

const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const provider = await startOidcProvider('https://pdf.example.test/base/auth/oidc/callback') // the harness's public URL
afterAll(() => provider.stop())
const server = await startTestApp({ PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ...oidcSettings(provider.issuer) })
const worker = startMailWorker(server.ctx, { pollMs: 60_000 })!
afterAll(() => worker.stop())
const root = await server.user('root') // the first user: the admin

const patch = (id: string, body: unknown) => server.call('PATCH', `/api/admin/users/${id}`, { token: root.token, ...jsonBody(body) })
const me = async (token: string) => (await json(await server.call('GET', '/api/me', { token }))).data
const mailsTo = (to: string) => mailsOf(server, smtp, worker, to)
/** A user who signs in with a password and has a reset email: someone whose account is worth taking. */
async function victim(name: string) {
  const user = await server.user(name)
  await setPassword(server.ctx, { name, password: `${name}'s own password` })
  const { users } = server.ctx.db.tables
  await server.ctx.db.orm
    .update(users)
    .set({ email: `${name}@example.org` })
    .where(eq(users.id, user.id))
  return user
}
/** The entries about the user's account that an admin made (what the dashboard's Account page shows). */
const byAdmin = async (token: string) => (await json(await server.call('GET', '/api/audit?by=admin', { token }))).data

describe('the reset email', () => {
  test('an admin cannot point a user’s resets at their own mailbox; a reset to it mails nothing', async () => {
    const vic = await victim('vic')
    const refused = await patch(vic.id, { email: 'root@example.org' })
    expect(refused.status).toBe(403)
    const answer = await json(refused)
    expect(answer.code).toBe('account_owner_only')
    expect(answer.error).toContain('PUT /api/me/email')
    expect((await me(vic.token)).email).toBe('vic@example.org')
    // The attack's second step: a reset for the admin's mailbox reaches no account.
    expect((await server.call('POST', '/api/auth/password-reset', jsonBody({ email: 'root@example.org' }))).status).toBe(202)
    expect(await mailsTo('root@example.org')).toEqual([])
    // Nor through the other fields in the same request: nothing of it applied.
    const mixed = await patch(vic.id, { maxFiles: 5, email: 'root@example.org' })
    expect(mixed.status).toBe(403)
    expect((await me(vic.token)).limits.maxFiles).toBeNull()
  })

  test('an admin may remove it: the user is mailed at that address and sees it on their account', async () => {
    const val = await victim('val')
    const cleared = await patch(val.id, { email: null })
    expect(cleared.status).toBe(200)
    expect((await json(cleared)).data.email).toBeNull()
    expect((await me(val.token)).email).toBeNull()
    const [told] = await mailsTo('val@example.org')
    expect(told).toContain('root removed this address')
    const [entry] = await byAdmin(val.token)
    expect(entry).toMatchObject({ action: 'user.email_set', actor: { name: 'root' }, detail: { email: null } })
  })

  test('an invitation mailed to the admin’s own mailbox gives the account no email: a reset to it mails nothing', async () => {
    const invited = await json(
      await server.call('POST', '/api/admin/invitations', { token: root.token, ...jsonBody({ email: 'root.inbox@example.org' }) }),
    )
    // The admin hands the link to someone else, who makes their account with it.
    const made = await json(
      await server.call(
        'POST',
        '/api/auth/accept-invitation',
        jsonBody({ invitation: invited.data.url.split('/').at(-1), username: 'ina', password: 'ina’s own password' }),
      ),
    )
    expect((await me(made.data.token)).email).toBeNull()
    expect((await server.call('POST', '/api/auth/password-reset', jsonBody({ email: 'root.inbox@example.org' }))).status).toBe(202)
    const toRoot = await mailsTo('root.inbox@example.org')
    expect(toRoot).toHaveLength(1) // the invitation only
    expect(toRoot[0]).not.toContain('#/reset/')
  })

  test('whoever accepts an invitation may name their own email: it counts once confirmed, like any new email', async () => {
    const invited = await json(await server.call('POST', '/api/admin/invitations', { token: root.token, ...jsonBody({}) }))
    const made = await json(
      await server.call(
        'POST',
        '/api/auth/accept-invitation',
        jsonBody({
          invitation: invited.data.url.split('/').at(-1),
          username: 'jo',
          password: 'jo’s own password',
          email: 'Jo@Example.org',
        }),
      ),
    )
    expect(await me(made.data.token)).toMatchObject({ email: null, pendingEmail: 'jo@example.org' })
    const secret = /#\/email\/([A-Za-z0-9_-]{22})/.exec((await mailsTo('jo@example.org'))[0]!)![1]!
    expect((await server.call('POST', '/api/auth/email/confirm', jsonBody({ secret }))).status).toBe(200)
    expect((await me(made.data.token)).email).toBe('jo@example.org')
  })
})

describe('the single sign-on link', () => {
  test('on an account in use it waits for the user: the provider account the admin named does not become them', async () => {
    const vera = await victim('vera')
    const asked = await patch(vera.id, { ssoEmail: 'mallory@example.com' })
    expect(asked.status).toBe(200)
    expect((await json(asked)).data).toMatchObject({ ssoEmail: 'mallory@example.com', ssoEmailAllowedByUser: false })

    const attempt = await signInWithSso(server, 'mallory@example.com')
    expect(attempt.status).toBe(403)
    expect(attempt.session).toBeUndefined()
    expect(attempt.page).toContain('waits for the account’s owner to allow it')
    expect(
      (await json(await server.call('GET', '/api/admin/users', { token: root.token }))).data.map((u: { name: string }) => u.name),
    ).not.toContain('mallory')

    // Vera is told: by mail, and on her account.
    const [told] = await mailsTo('vera@example.org')
    expect(told).toContain('mallory@example.com')
    expect((await me(vera.token)).ssoLink).toEqual({ email: 'mallory@example.com', allowed: false })
    expect((await byAdmin(vera.token))[0]).toMatchObject({ action: 'user.sso_link_set', detail: { ssoEmail: 'mallory@example.com' } })

    // She refuses: the request is gone, and the provider account gets an account of its own instead.
    expect((await server.call('DELETE', '/api/me/sso-link', { token: vera.token })).status).toBe(200)
    expect((await me(vera.token)).ssoLink).toBeNull()
    // Her own refusal is in her activity, but not among the changes by an admin.
    const all = await json(await server.call('GET', '/api/audit?action=user.sso_link_set', { token: vera.token }))
    expect(all.data.map((entry: { actor: { name: string } }) => entry.actor.name)).toEqual(['vera', 'root'])
    expect((await byAdmin(vera.token)).map((entry: { actor: { name: string } }) => entry.actor.name)).toEqual(['root'])
    const own = await signInWithSso(server, 'mallory@example.com')
    expect(own.session?.user.name).toBe('mallory')
  }, 30_000)

  test('the user allows it: the next single sign-on with that email is them', async () => {
    const wes = await victim('wes')
    await patch(wes.id, { ssoEmail: 'wes.sso@example.com' })
    // Allowing it changes how the account signs in: a session with the password (docs/sign-in.md).
    const allow = async (email: string, token: string, password?: string) =>
      server.call('POST', '/api/me/sso-link', { token, ...jsonBody({ email, password }) })
    expect((await allow('wes.sso@example.com', wes.token)).status).toBe(403) // an API token never may
    const session = await sessionOf(server, 'wes')
    expect((await allow('other@example.com', session, PASSWORD)).status).toBe(409) // not what the admin asked (or asked since)
    expect((await allow('wes.sso@example.com', session)).status).toBe(403) // without the password
    const allowed = await allow('wes.sso@example.com', session, PASSWORD)
    expect(allowed.status).toBe(200)
    expect((await me(wes.token)).ssoLink).toEqual({ email: 'wes.sso@example.com', allowed: true })
    const signedIn = await signInWithSso(server, 'wes.sso@example.com')
    expect(signedIn.session?.user.name).toBe('wes')
    expect((await me(wes.token)).ssoLink).toBeNull() // used, once
  }, 30_000)

  test('an unused account (no password, passkey, token, sign-in or file) links at once; one that got a password meanwhile waits', async () => {
    const fresh = await addUser(server.ctx, { name: 'fresh' })
    await patch(fresh.id, { ssoEmail: 'fresh@example.com' })
    expect((await signInWithSso(server, 'fresh@example.com')).session?.user.name).toBe('fresh')

    const later = await addUser(server.ctx, { name: 'later' })
    await patch(later.id, { ssoEmail: 'later@example.com' })
    await setPassword(server.ctx, { name: 'later', password: 'a password set after the admin asked' })
    expect((await signInWithSso(server, 'later@example.com')).status).toBe(403)
  }, 30_000)
})
