import { afterAll, describe, expect, test } from 'bun:test'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { queueMail } from '../../src/core/mail/message'
import { randomId } from '../../src/lib/ids'
import type { RequestDto } from '../../src/routes/requests/model'
import { makePdf } from '../../scripts/support/pdf'
import { startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { mailsTo } from '../support/mail-outbox'
import { decodedMail } from '../support/mime'
import { startSmtpServer } from '../support/smtp'
import { uploadPdf } from '../support/uploads'
import { browserClients } from '../support/browser-client'

// The code mails speak the language of the page they were asked from (docs/languages.md, Mails): the link's,
// else the picker's cookie's, else the browser's, else the instance's default; mailed through a real SMTP server
// on loopback and read back decoded (subject words, quoted-printable, base64).
const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const server = await startTestApp({
  PDFSHARE_TRUST_PROXY: '1',
  PDFSHARE_RATE_LIMIT_SHARE: '0',
  PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  PDFSHARE_MAIL_FROM: 'pdfshare <pdf@example.test>',
})
const worker = startMailWorker(server.ctx, { pollMs: 100 })!
afterAll(() => worker.stop())
const owner = await server.user('mail-languages-owner')
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1 }), name: 'deck.pdf' }, { title: 'Deck' })
const readers = browserClients(server, '198.17')

/** The one mail to `to`, decoded. */
async function theMailTo(to: string) {
  const mails = await mailsTo(server, smtp, worker, to)
  expect(mails.length).toBe(1)
  return decodedMail(smtp.received.find((one) => one.to.includes(to))!.data)
}

describe('a code mail', () => {
  test("is in German for a reader whose browser asks for German, its HTML part lang=de; the code is the page's", async () => {
    const link = await addLink(server, file.id, { access: 'verified-email' })
    const reader = readers({ headers: { 'accept-language': 'de-AT, en;q=0.5' } })
    const asked = await reader.post(`${link.path}/reader`, { email: 'kim@example.test' })
    expect(asked.status).toBe(200)
    const mail = await theMailTo('kim@example.test')
    expect(mail.subject).toBe('Ihr Code zum Öffnen eines geteilten Dokuments')
    expect(mail.text).toContain(
      `Jemand (hoffentlich Sie) möchte auf ${server.ctx.config.publicUrl} ein mit Ihnen geteiltes Dokument öffnen.`,
    )
    expect(mail.text).toContain('er ist 10 Minuten lang gültig.')
    expect(mail.text).toContain('Ohne den Code wird nichts geöffnet.')
    expect(mail.html).toContain('<html lang="de" dir="ltr">')
    const code = /Ihr Code lautet (\d{6})\./.exec(mail.text)?.[1]
    expect(code).toBeDefined()
    // The code in the German mail opens the link.
    expect((await reader.post(`${link.path}/code`, { email: 'kim@example.test', code: code! })).status).toBe(303)
  })

  test('is in Arabic, right to left, for a reader who picked Arabic (the cookie beats the browser)', async () => {
    const link = await addLink(server, file.id, { access: 'verified-email' })
    const reader = readers({ headers: { 'accept-language': 'fr', cookie: 'pdfshare_lang=ar' } })
    expect((await reader.post(`${link.path}/reader`, { email: 'nour@example.test' })).status).toBe(200)
    const mail = await theMailTo('nour@example.test')
    expect(mail.subject).toBe('رمزك لفتح مستند تمت مشاركته معك')
    expect(mail.html).toContain('<html lang="ar" dir="rtl">')
    expect(mail.text).toMatch(/رمزك هو \d{6}\./)
  })

  test("is in the link's language when the link fixes one, whatever the browser asks", async () => {
    const link = await addLink(server, file.id, { access: 'verified-email', language: 'ja' })
    const reader = readers({ headers: { 'accept-language': 'de' } })
    expect((await reader.post(`${link.path}/reader`, { email: 'aki@example.test' })).status).toBe(200)
    const mail = await theMailTo('aki@example.test')
    expect(mail.subject).toBe('共有ドキュメントを開くためのコード')
    expect(mail.text).toContain('有効期間は10分です。')
    expect(mail.html).toContain('<html lang="ja" dir="ltr">')
  })

  test("to a file request's sender is in their page's language (Polish: its plural of minutes)", async () => {
    const created = await server.call('POST', '/api/requests', {
      token: owner.token,
      body: JSON.stringify({ title: 'Statements', access: 'verified-email' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(created.status).toBe(201)
    const request: RequestDto = (await created.json()).data
    const sender = readers({ userAgent: null, headers: { 'accept-language': 'pl-PL' } })
    expect((await sender.post(`/u/${request.url.split('/u/')[1]}/sender`, { email: 'ola@example.test' })).status).toBe(200)
    const mail = await theMailTo('ola@example.test')
    expect(mail.subject).toBe('Twój kod do wysłania pliku')
    expect(mail.text).toContain('jest ważny przez 10 minut.')
    expect(mail.text).toContain('bez kodu nic nie zostanie wysłane.')
    expect(mail.html).toContain('<html lang="pl" dir="ltr">')
  })

  test('queued before mails spoke languages (its words and HTML written then), it still goes out as written, in English', async () => {
    const { mailOutbox } = server.ctx.db.tables
    const now = server.ctx.now()
    // The row as the code before this change wrote it: no language anywhere, an <html> without lang.
    await server.ctx.db.orm.insert(mailOutbox).values({
      id: randomId(),
      kind: 'reader code',
      toAddress: 'old@example.test',
      subject: 'Your code to open a shared document',
      textBody: 'Your code is 123456. Type it on the page; it works for 10 minutes.',
      htmlBody: '<!doctype html><html><body><p>Your code is 123456. Type it on the page; it works for 10 minutes.</p></body></html>',
      createdAt: now,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      lastResponse: null,
      sentAt: null,
    })
    const mail = await theMailTo('old@example.test')
    expect(mail.subject).toBe('Your code to open a shared document')
    expect(mail.text).toContain('Your code is 123456.')
    // And a mail queued without a language is English, said so in its HTML.
    await queueMail(server.ctx, { kind: 'test', to: 'plain@example.test', subject: 'Hello', text: 'Hello at https://example.test.' })
    const plain = await theMailTo('plain@example.test')
    expect(plain.html).toContain('<html lang="en" dir="ltr">')
    // The sentence's stop is not part of the link.
    expect(plain.html).toContain('<a href="https://example.test">https://example.test</a>.')
  })
})
