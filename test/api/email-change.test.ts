import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { setPassword } from '../../src/core/accounts/users/users'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { json, startTestApp } from '../support/harness'
import { mailsTo as mailsOf } from '../support/mail-outbox'
import { jsonBody, PASSWORD, sessionOf } from '../support/sessions'
import { startSmtpServer } from '../support/smtp'

// PUT /api/me/email (docs/api.md, Password reset): a new address counts only once a link mailed to it is opened,
// and the answer never tells whether the address is another user's. Through a real SMTP server.

const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const server = await startTestApp({ PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` })
const worker = startMailWorker(server.ctx, { pollMs: 60_000 })!
afterAll(() => worker.stop())

/** PUT /api/me/email as `user`, from a dashboard session with the password (docs/sign-in.md, Changing how you sign in). */
const putEmail = async (user: { name: string }, email: string | null) =>
  server.call('PUT', '/api/me/email', { token: await sessionOf(server, user.name), ...jsonBody({ email, password: PASSWORD }) })
const me = async (token: string) => (await json(await server.call('GET', '/api/me', { token }))).data
const confirm = (secret: string) => server.call('POST', '/api/auth/email/confirm', jsonBody({ secret }))
const mailsTo = (to: string) => mailsOf(server, smtp, worker, to)
const secretIn = (mail: string) => /#\/email\/([A-Za-z0-9_-]{22})/.exec(mail)?.[1]
/** Gives a user an address without the API (a state the tests start from). */
const giveEmail = (id: string, email: string) =>
  server.ctx.db.orm.update(server.ctx.db.tables.users).set({ email }).where(eq(server.ctx.db.tables.users.id, id))

describe('PUT /api/me/email', () => {
  test('the answer is the same for a free address, another user’s and the caller’s own, and nothing changes before confirmation', async () => {
    const kim = await server.user('kim')
    await giveEmail(kim.id, 'kim@example.com')
    const sam = await server.user('sam')
    await giveEmail(sam.id, 'sam@example.com')

    const free = await putEmail(sam, 'free@example.com')
    const taken = await putEmail(sam, 'kim@example.com')
    const own = await putEmail(sam, 'sam@example.com')
    expect([free.status, taken.status, own.status]).toEqual([202, 202, 202])
    const [a, b, c] = [await json(free), await json(taken), await json(own)]
    const shape = (answer: typeof a) => ({
      ...answer,
      data: { ...answer.data, pendingEmail: 'X', message: answer.data.message.replace(answer.data.pendingEmail, 'X') },
    })
    expect(shape(a)).toEqual(shape(b))
    expect(shape(b)).toEqual(shape(c))
    expect(b.data.email).toBe('sam@example.com') // still the old one

    // Nothing changed yet: kim keeps her address, sam keeps his; GET /api/me shows the pending one the same way.
    expect((await me(kim.token)).email).toBe('kim@example.com')
    expect(await me(sam.token)).toMatchObject({ email: 'sam@example.com', pendingEmail: 'sam@example.com' })
    // Kim's mailbox is told someone tried, and gets no link; the free address gets a link.
    const toKim = await mailsTo('kim@example.com')
    expect(toKim).toHaveLength(1)
    expect(secretIn(toKim[0]!)).toBeUndefined()
    expect(toKim[0]).toContain('already belongs to an account')
    expect(secretIn((await mailsTo('free@example.com'))[0]!)).toBeDefined()
  })

  test('squatting: an address asked for but never confirmed is not the asker’s, and its owner can still take it', async () => {
    const mallory = await server.user('mallory')
    const ann = await server.user('ann')
    await setPassword(server.ctx, { name: 'ann', password: 'ann has a password' })
    expect((await putEmail(mallory, 'ann@example.com')).status).toBe(202)
    expect((await me(mallory.token)).email).toBeNull()
    const [mallorysLink] = (await mailsTo('ann@example.com')).map(secretIn)
    // Ann asks for her own address and opens her link first.
    expect((await putEmail(ann, 'ann@example.com')).status).toBe(202)
    const annsLink = (await mailsTo('ann@example.com')).map(secretIn).find((secret) => secret !== mallorysLink)!
    expect((await json(await confirm(annsLink))).data.email).toBe('ann@example.com')
    expect((await me(ann.token)).email).toBe('ann@example.com')
    // Mallory's link now fails like any spent one: the address is taken (the database's unique key decides).
    const late = await confirm(mallorysLink!)
    expect(late.status).toBe(404)
    expect((await me(mallory.token)).email).toBeNull()
  })

  test('the mailed link sets the address once; the old address is told; resets then go to the new one', async () => {
    const zed = await server.user('zed')
    await setPassword(server.ctx, { name: 'zed', password: 'zed has a password' })
    await giveEmail(zed.id, 'zed.old@example.com')
    expect((await putEmail(zed, 'Zed.New@Example.com')).status).toBe(202)
    const secret = secretIn((await mailsTo('zed.new@example.com'))[0]!)!
    const done = await confirm(secret)
    expect(done.status).toBe(200)
    expect((await json(done)).data.email).toBe('zed.new@example.com')
    expect(await me(zed.token)).toMatchObject({ email: 'zed.new@example.com', pendingEmail: null })
    expect((await confirm(secret)).status).toBe(404) // once
    const told = await mailsTo('zed.old@example.com')
    expect(told).toHaveLength(1)
    expect(told[0]).toContain('zed.new@example.com')
    const audit = await json(await server.call('GET', '/api/audit?action=user.email_set', { token: zed.token }))
    expect(audit.data[0].detail).toMatchObject({ email: 'zed.new@example.com', via: 'confirmed by mail' })

    expect((await server.call('POST', '/api/auth/password-reset', jsonBody({ email: 'zed.new@example.com' }))).status).toBe(202)
    expect((await mailsTo('zed.new@example.com')).some((mail) => mail.includes('#/reset/'))).toBe(true)
  })

  test('an expired or replaced link does nothing; null removes the address at once', async () => {
    const lee = await server.user('lee')
    await putEmail(lee, 'lee.first@example.com')
    await putEmail(lee, 'lee.second@example.com')
    const first = secretIn((await mailsTo('lee.first@example.com'))[0]!)!
    expect((await confirm(first)).status).toBe(404) // replaced by the second request
    const { emailChanges } = server.ctx.db.tables
    await server.ctx.db.orm.update(emailChanges).set({ expiresAt: Date.now() - 1 })
    const second = secretIn((await mailsTo('lee.second@example.com'))[0]!)!
    const expired = await confirm(second)
    expect(expired.status).toBe(404)
    expect((await json(expired)).code).toBe('not_found')
    expect((await me(lee.token)).email).toBeNull()

    await giveEmail(lee.id, 'lee@example.com')
    const removed = await putEmail(lee, null)
    expect(removed.status).toBe(200)
    expect(await me(lee.token)).toMatchObject({ email: null, pendingEmail: null })
  })

  test('a bad address is a 400 and nothing is mailed', async () => {
    const ivy = await server.user('ivy')
    const bad = await putEmail(ivy, 'not an address')
    expect(bad.status).toBe(400)
    expect((await me(ivy.token)).pendingEmail).toBeNull()
  })
})
