import { afterAll, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { startNotifier } from '../../src/core/notifications/notifier'
import { makePdf } from '../../scripts/support/pdf'
import { eventually } from '../support/eventually'
import { json, startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { decodedMail } from '../support/mime'
import { jsonBody, PASSWORD, sessionOf } from '../support/sessions'
import { startSmtpServer } from '../support/smtp'
import { uploadPdf } from '../support/uploads'
import { browserNumber } from '../support/user-agents'

// An account's language (PATCH /api/me) and the mails it gets in it (docs/languages.md, Mails): the mails to
// accounts are in the account's language, else the one of the request that caused them, else the instance's
// default; the owners' notifications are in the owner's, else the default. The account mails are read from the
// outbox as they were written; the notification goes through a real SMTP server.
const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const server = await startTestApp({ PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PDFSHARE_TRUST_PROXY: '1' })
const admin = await server.user('root') // the first user: the admin
const { users, mailOutbox } = server.ctx.db.tables
const site = server.ctx.config.publicUrl

const setLanguage = (token: string, language: unknown, headers: Record<string, string> = {}) =>
  server.call('PATCH', '/api/me', {
    token,
    body: JSON.stringify({ language }),
    headers: { 'content-type': 'application/json', ...headers },
  })
const me = async (token: string) => (await json(await server.call('GET', '/api/me', { token }))).data
const giveEmail = (id: string, email: string) => server.ctx.db.orm.update(users).set({ email }).where(eq(users.id, id))
/** The newest mail queued to `to`, as its outbox row holds it. */
async function lastMailTo(to: string) {
  const [row] = await server.ctx.db.orm.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(desc(mailOutbox.createdAt))
  expect(row).toBeDefined()
  return row!
}
const askReset = (email: string, headers: Record<string, string> = {}) =>
  server.call('POST', '/api/auth/password-reset', {
    body: JSON.stringify({ email }),
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250)}`, ...headers },
  })

describe('PATCH /api/me', () => {
  test("sets and clears the account's language; anything but the twelve tags is a 400 invalid_request that changes nothing", async () => {
    const user = await server.user()
    expect((await me(user.token)).language).toBeNull()
    const set = await setLanguage(user.token, 'pt-BR')
    expect(set.status).toBe(200)
    expect((await json(set)).data.language).toBe('pt-BR')
    for (const wrong of ['pt', 'PT-br', 'xx', 'de-DE', 7, '']) {
      const refused = await setLanguage(user.token, wrong)
      expect(refused.status).toBe(400)
      const body = await json(refused)
      expect(body.code).toBe('invalid_request')
      expect(body.error).toContain('"zh-Hans"')
    }
    expect((await me(user.token)).language).toBe('pt-BR')
    // A body without the field leaves it as it is.
    expect((await json(await server.call('PATCH', '/api/me', { token: user.token, ...jsonBody({}) }))).data.language).toBe('pt-BR')
    expect((await json(await setLanguage(user.token, null))).data.language).toBeNull()
    expect((await me(user.token)).language).toBeNull()
  })

  test('needs a token with the account scope', async () => {
    const user = await server.user()
    const issued = await json(
      await server.call('POST', '/api/tokens', { token: user.token, ...jsonBody({ label: 'read only', scopes: ['files:read'] }) }),
    )
    const refused = await setLanguage(issued.data.token, 'de')
    expect(refused.status).toBe(403)
    expect((await me(user.token)).language).toBeNull()
  })
})

describe('the mails to an account', () => {
  test("a password reset is in the account's language whatever the browser says: Arabic, its HTML right to left", async () => {
    const user = await server.user()
    await giveEmail(user.id, 'samira@example.test')
    await sessionOf(server, user.name) // gives the account a password: resets are for password accounts
    await setLanguage(user.token, 'ar')
    expect((await askReset('samira@example.test', { 'accept-language': 'de' })).status).toBe(202)
    const mail = await lastMailTo('samira@example.test')
    expect(mail.subject).toBe('اختر كلمة مرور جديدة لـ pdfshare')
    expect(mail.textBody).toContain(`${site}/app#/reset/`)
    expect(mail.textBody).toContain('30 دقيقة')
    expect(mail.htmlBody).toContain('<html lang="ar" dir="rtl">')
  })

  test("without a language of its own: the one of the request that caused it, else the instance's default", async () => {
    const user = await server.user()
    await giveEmail(user.id, 'kai@example.test')
    await sessionOf(server, user.name)
    expect((await askReset('kai@example.test', { 'accept-language': 'de-CH,de;q=0.9,en;q=0.8' })).status).toBe(202)
    const german = await lastMailTo('kai@example.test')
    expect(german.subject).toBe('Neues Passwort für pdfshare wählen')
    expect(german.textBody).toContain(`Jemand (hoffentlich Sie) möchte ein neues Passwort für ${user.name} auf ${site} wählen.`)
    expect(german.textBody).toContain('30 Minuten')
    expect(german.htmlBody).toContain('<html lang="de" dir="ltr">')
    expect((await askReset('kai@example.test')).status).toBe(202)
    expect((await lastMailTo('kai@example.test')).subject).toBe('Choose a new pdfshare password')
  })

  test("a new address's confirmation, and the old address's notice, are in the account's language", async () => {
    const user = await server.user('haruki')
    const session = await sessionOf(server, user.name)
    await giveEmail(user.id, 'haruki.old@example.test')
    await setLanguage(user.token, 'ja')
    const asked = await server.call('PUT', '/api/me/email', {
      token: session,
      ...jsonBody({ email: 'haruki.new@example.test', password: PASSWORD }),
    })
    expect(asked.status).toBe(202)
    const confirmation = await lastMailTo('haruki.new@example.test')
    expect(confirmation.subject).toBe('pdfshare のメールアドレスを確認してください')
    expect(confirmation.textBody).toContain('24時間')
    const secret = /#\/email\/([A-Za-z0-9_-]{22})/.exec(confirmation.textBody)![1]!
    expect((await server.call('POST', '/api/auth/email/confirm', jsonBody({ secret }))).status).toBe(200)
    const notice = await lastMailTo('haruki.old@example.test')
    expect(notice.subject).toBe('pdfshare のメールアドレスが変更されました')
    expect(notice.textBody).toContain('haruki.new@example.test')
  })

  test("an address another account has is told in that account's language, not the asker's", async () => {
    const owner = await server.user()
    await giveEmail(owner.id, 'ola@example.test')
    await setLanguage(owner.token, 'pl')
    const asker = await server.user()
    const session = await sessionOf(server, asker.name)
    await setLanguage(asker.token, 'fr')
    const asked = await server.call('PUT', '/api/me/email', {
      token: session,
      ...jsonBody({ email: 'ola@example.test', password: PASSWORD }),
    })
    expect(asked.status).toBe(202)
    const mail = await lastMailTo('ola@example.test')
    expect(mail.subject).toBe('Potwierdź swój adres e-mail w pdfshare')
    expect(mail.textBody).toContain('Ten adres należy już do konta')
  })

  test("an admin's change is told in the account's language; an invitation in the inviting admin's", async () => {
    const user = await server.user()
    await giveEmail(user.id, 'lena@example.test')
    await setLanguage(user.token, 'uk')
    expect((await server.call('PATCH', `/api/admin/users/${user.id}`, { token: admin.token, ...jsonBody({ email: null }) })).status).toBe(
      200,
    )
    const notice = await lastMailTo('lena@example.test')
    expect(notice.subject).toBe('Адміністратор змінив ваш обліковий запис pdfshare')
    expect(notice.textBody).toContain('root')

    await setLanguage(admin.token, 'es')
    const invited = await server.call('POST', '/api/admin/invitations', {
      token: admin.token,
      ...jsonBody({ email: 'new.hire@example.test' }),
    })
    expect(invited.status).toBe(201)
    const invitation = await lastMailTo('new.hire@example.test')
    expect(invitation.subject).toBe('root le invita a pdfshare')
    expect(invitation.textBody).toContain('7 días')
    await setLanguage(admin.token, null)
  })
})

describe("the owners' notification mails", () => {
  test('an owner whose language is German gets a German mail on an English instance', async () => {
    const owner = await server.user('deutsche-eignerin')
    await setLanguage(owner.token, 'de')
    const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1 }), name: 'plan.pdf' }, { title: 'Geschäftsplan' })
    const channel = await server.call('POST', '/api/notifications/channels', {
      token: owner.token,
      ...jsonBody({ kind: 'email', target: 'eignerin@example.test' }),
    })
    expect(channel.status).toBe(201)
    const link = await addLink(server, file.id, { label: 'Vorstand' })
    const notifier = startNotifier(server.ctx, { pollMs: 3_600_000 })
    try {
      expect(
        (
          await server.call('GET', link.path, {
            headers: { 'user-agent': browserNumber(1), 'accept-language': 'ja', 'x-forwarded-for': '198.51.100.7' },
          })
        ).status,
      ).toBe(200)
      notifier.nudge()
      await notifier.idle()
      await eventually(async () => {
        if (!smtp.received.some((one) => one.to.includes('eignerin@example.test'))) throw new Error('not yet')
      })
    } finally {
      notifier.stop()
    }
    const told = decodedMail(smtp.received.find((one) => one.to.includes('eignerin@example.test'))!.data)
    expect(told.subject).toBe('Neuer Leser: Geschäftsplan')
    expect(told.text).toContain('Jemand hat es über den Link „Vorstand“ um')
    expect(told.html).toContain('<html lang="de" dir="ltr">')
  })
})
