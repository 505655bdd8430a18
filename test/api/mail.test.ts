import { afterAll, describe, expect, test } from 'bun:test'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { eventually } from '../support/eventually'
import { json, startTestApp } from '../support/harness'
import { jsonBody, sessionOf } from '../support/sessions'
import { startSmtpServer } from '../support/smtp'

// Mail through a real SMTP server (smtp-server under Node, on loopback): invitations by mail, the outbox's
// retries and refusals, the test mail. STARTTLS and AUTH are tested from a server process in test/server/mail.test.ts.

describe('without PDFSHARE_SMTP_URL', () => {
  test('what needs mail says so, and nothing is made', async () => {
    const server = await startTestApp()
    const root = await server.user('root')
    const invited = await server.call('POST', '/api/admin/invitations', { token: root.token, ...jsonBody({ email: 'ann@example.com' }) })
    expect(invited.status).toBe(400)
    expect((await json(invited)).error).toContain('PDFSHARE_SMTP_URL is not set')
    expect((await json(await server.call('GET', '/api/admin/invitations', { token: root.token }))).data).toEqual([])
    const test = await server.call('POST', '/api/admin/mail/test', { token: root.token, ...jsonBody({ to: 'ann@example.com' }) })
    expect((await json(test)).error).toContain('cannot send mail')
    const channel = await server.call('POST', '/api/notifications/channels', {
      token: root.token,
      ...jsonBody({ kind: 'email', target: 'ann@example.com' }),
    })
    expect(channel.status).toBe(400)
    expect((await json(channel)).error).toContain('PDFSHARE_SMTP_URL is not set')
    expect((await json(await server.call('GET', '/api/notifications/channels', { token: root.token }))).data).toEqual([])
  })
})

describe('with an SMTP server', async () => {
  const smtp = await startSmtpServer({ temporaryRefusals: 1 })
  afterAll(() => smtp.stop())
  const server = await startTestApp({
    PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    PDFSHARE_MAIL_FROM: 'Team PDFs <pdf@example.test>',
  })
  const root = await server.user('root')
  let ahead = 0 // how far the worker's clock runs ahead of the real one
  const worker = startMailWorker({ ...server.ctx, now: () => Date.now() + ahead }, { pollMs: 60_000 })!
  afterAll(() => worker.stop())
  const outbox = async () => (await json(await server.call('GET', '/api/admin/mail', { token: root.token }))).data

  test('an invitation by mail: a 4xx is kept and retried after the backoff, then it arrives once, as text and HTML, without images', async () => {
    const invited = await json(
      await server.call('POST', '/api/admin/invitations', { token: root.token, ...jsonBody({ email: 'ann@example.com' }) }),
    )
    expect(invited.data.mailedTo).toBe('ann@example.com')
    worker.nudge()
    await worker.idle()
    const [first] = await outbox()
    expect(first).toMatchObject({ kind: 'invitation', to: 'ann@example.com', status: 'pending', attempts: 1 })
    expect(first.lastResponse).toContain('451')
    expect(smtp.received).toEqual([])

    ahead += 11_000 // past the first retry's 10 s
    worker.nudge()
    await worker.idle()
    const mail = await smtp.next('ann@example.com')
    expect(mail.from).toBe('pdf@example.test')
    expect(mail.data).toContain('Subject: root invites you to pdfshare')
    expect(mail.data).toMatch(/^From: Team PDFs <pdf@example\.test>/m)
    expect(mail.data).toMatch(/^Message-ID: <[A-Za-z0-9_-]+@pdf\.example\.test>/im)
    expect(mail.data).toContain('Content-Type: text/plain')
    expect(mail.data).toContain('Content-Type: text/html')
    expect(mail.data.replace(/=\r?\n/g, '')).toContain(invited.data.url.split('#')[1])
    expect(mail.data).not.toMatch(/<img|<script|https?:\/\/[^\s"]+\.(png|gif|jpg)/i)
    const [sent] = await outbox()
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 })
    // The body (the invitation's secret) is not kept once the mail is sent.
    const rows = await server.ctx.db.orm.select().from(server.ctx.db.tables.mailOutbox)
    expect(rows.find((row) => row.id === sent.id)).toMatchObject({ textBody: '', htmlBody: '' })
    expect(sent.lastResponse).toContain('250')
    ahead += 24 * 60 * 60 * 1000
    worker.nudge()
    await worker.idle()
    expect(smtp.received.filter((one) => one.to.includes('ann@example.com'))).toHaveLength(1) // never twice
  })

  test('a 5xx refusal fails at once, with the answer kept for the admin', async () => {
    await server.call('POST', '/api/admin/invitations', { token: root.token, ...jsonBody({ email: 'ghost@refuse.test' }) })
    worker.nudge()
    await worker.idle()
    const [failed] = await outbox()
    expect(failed).toMatchObject({ to: 'ghost@refuse.test', status: 'failed', attempts: 1 })
    expect(failed.lastResponse).toContain('550')
  })

  test('forgot password: the same answer for anyone; a user with that email gets a link that works once and ends other sessions', async () => {
    const zoe = await server.user('zoe')
    const owner = await sessionOf(server, 'zoe', 'the old password')
    // Her email counts once the link mailed to it is opened (test/api/email-change.test.ts has the rest).
    const setEmail = await server.call('PUT', '/api/me/email', {
      token: owner,
      ...jsonBody({ email: 'Zoe@Example.com', password: 'the old password' }),
    })
    expect((await json(setEmail)).data.pendingEmail).toBe('zoe@example.com')
    worker.nudge()
    await worker.idle()
    const confirmation = (await smtp.next('zoe@example.com')).data.replace(/=\r?\n/g, '')
    const link = /#\/email\/([A-Za-z0-9_-]{22})/.exec(confirmation)![1]!
    expect((await json(await server.call('POST', '/api/auth/email/confirm', jsonBody({ secret: link })))).data.email).toBe(
      'zoe@example.com',
    )
    const before = owner

    const ask = (email: string) => server.call('POST', '/api/auth/password-reset', jsonBody({ email }))
    const known = await ask('zoe@example.com')
    const unknown = await ask('nobody@example.com')
    expect(known.status).toBe(202)
    expect(unknown.status).toBe(202)
    expect(await json(known)).toEqual(await json(unknown)) // nothing tells whether the address is a user's
    worker.nudge()
    await worker.idle()
    let mail = await smtp.next('zoe@example.com')
    await eventually(() => {
      mail = smtp.received.findLast((one) => one.to.includes('zoe@example.com'))!
      expect(mail.data).toContain('Subject: Choose a new pdfshare password')
    })
    expect(smtp.received.some((one) => one.to.includes('nobody@example.com'))).toBe(false)
    const secret = /#\/reset\/([A-Za-z0-9_-]{22})/.exec(mail.data.replace(/=\r?\n/g, ''))![1]!

    const complete = (password: string) => server.call('POST', '/api/auth/password-reset/complete', jsonBody({ secret, password }))
    expect((await complete('short')).status).toBe(400) // the password rule, and the link still works
    const done = await json(await complete('a brand new password'))
    expect(done.data.user.name).toBe('zoe')
    expect((await server.call('GET', '/api/me', { token: done.data.token })).status).toBe(200)
    expect((await server.call('GET', '/api/me', { token: before })).status).toBe(401) // the old session ended
    expect((await server.call('GET', '/api/me', { token: zoe.token })).status).toBe(200) // API tokens stay
    expect((await complete('another new password')).status).toBe(404) // once
    expect((await server.call('POST', '/api/auth/login', jsonBody({ username: 'zoe', password: 'a brand new password' }))).status).toBe(200)
    expect((await server.call('POST', '/api/auth/login', jsonBody({ username: 'zoe', password: 'the old password' }))).status).toBe(401)
  })

  test('a mailed invitation’s address is not the new account’s email: the admin chose it (test/api/admin-account-changes.test.ts)', async () => {
    const invited = await json(
      await server.call('POST', '/api/admin/invitations', { token: root.token, ...jsonBody({ email: 'Kit@Example.com' }) }),
    )
    const secret = invited.data.url.split('/').at(-1)
    const made = await json(
      await server.call(
        'POST',
        '/api/auth/accept-invitation',
        jsonBody({ invitation: secret, username: 'kit', password: 'a long enough password' }),
      ),
    )
    expect((await json(await server.call('GET', '/api/me', { token: made.data.token }))).data.email).toBeNull()
  })

  test('a test mail is sent at once and answers what the server said', async () => {
    const answer = await json(
      await server.call('POST', '/api/admin/mail/test', { token: root.token, ...jsonBody({ to: 'me@example.com' }) }),
    )
    expect(answer.data.accepted).toBe(true)
    expect(answer.data.response).toContain('250')
    expect((await smtp.next('me@example.com')).data).toContain('Subject: pdfshare: a test mail')
    const refused = await json(
      await server.call('POST', '/api/admin/mail/test', { token: root.token, ...jsonBody({ to: 'x@refuse.test' }) }),
    )
    expect(refused.data).toMatchObject({ accepted: false })
    expect(refused.data.response).toContain('550')
    const bad = await server.call('POST', '/api/admin/mail/test', { token: root.token, ...jsonBody({ to: 'not an address' }) })
    expect(bad.status).toBe(400)
  })
})
