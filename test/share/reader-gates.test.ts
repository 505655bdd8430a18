import { afterAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { createApp } from '../../src/app'
import { PLACEHOLDER_PREVIEW } from '../../src/core/previews/preview-service'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { ACCEPTANCES_PER_HOUR } from '../../src/core/share/accept-agreement'
import { CODE_LIMITS } from '../../src/core/readers/mailed-codes'
import { makePdf } from '../../scripts/support/pdf'
import { BASE, json, startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { startSmtpServer } from '../support/smtp'
import { uploadPdf } from '../support/uploads'
import { browserClients } from '../support/browser-client'
import { FIREFOX, SLACKBOT } from '../support/user-agents'

// The gates a link may put before its document besides a password (docs/readers.md): the reader's address,
// proved with a code mailed through a real SMTP server (smtp-server on loopback), allow and deny lists, an
// agreement. Nothing of the document before every gate is passed; the visits keep the address.
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
const owner = await server.user('gate-owner')
const TITLE = 'Series B deck'
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 3 }), name: 'series-b.pdf' }, { title: TITLE })
const PLACEHOLDER = readFileSync(PLACEHOLDER_PREVIEW.path)

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const readers = browserClients(server, '198.19')
/** A reader's browser: one address, one cookie jar, following nothing by itself. */
const reader = (userAgent = FIREFOX) => readers({ userAgent })
const api = (method: string, path: string, body?: unknown) =>
  server.call(method, path, {
    token: owner.token,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
/** The code of the newest mail to `to` that came after `after` mails to it. */
async function codeMailed(to: string, after = 0): Promise<string> {
  worker.nudge()
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const mails = smtp.received.filter((mail) => mail.to.includes(to))
    if (mails.length > after) {
      const { data } = mails.at(-1)!
      // The subject is neutral (admins see subjects in the outbox); the code is in the body only.
      expect(data).toMatch(/^Subject: Your code to open a shared document$/m)
      const code = /Your code is (\d{6})\./.exec(data)
      if (!code) throw new Error(`a mail to ${to} without a code in its body`)
      return code[1]!
    }
    await Bun.sleep(25)
  }
  throw new Error(`no code mailed to ${to}`)
}
const mailsTo = (to: string) => smtp.received.filter((mail) => mail.to.includes(to)).length

/** Asserts the answer shows nothing of the document (title, preview tags, bytes). */
async function expectNothingOfTheDocument(response: Response): Promise<string> {
  const body = Buffer.from(await response.arrayBuffer())
  const text = body.toString('latin1')
  expect(text).not.toContain(TITLE)
  expect(text).not.toContain('series-b')
  expect(text).not.toContain('og:')
  expect(text.startsWith('%PDF')).toBe(false)
  expect(response.headers.get('content-disposition')).toBeNull()
  return text
}

describe('a link that asks for an address', () => {
  test('before the address: a plain form and the notice of what is kept; no route gives anything of the document', async () => {
    const link = await addLink(server, file.id, { access: 'email' })
    const someone = reader()
    const page = await someone.get(link.path)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('no-store')
    const html = await expectNothingOfTheDocument(page)
    expect(html).toContain('<title>Your email address</title>')
    expect(html).toContain(`action="/base${link.path}/reader"`)
    expect(html).toMatch(/<label for="reader-email">Email address<\/label>/)
    expect(html).toContain('type="email" autocomplete="email"')
    expect(html).toContain('will see your address with your visits, kept for 365 days')
    for (const route of ['/file', '/download']) {
      const response = await someone.get(`${link.path}${route}`)
      expect(response.status).toBe(403)
      await expectNothingOfTheDocument(response)
    }
    const preview = await someone.get(`${link.path}/preview.png`)
    expect(Buffer.from(await preview.arrayBuffer()).equals(PLACEHOLDER)).toBe(true)
    // A link unfurler gets the same form, nothing of the document.
    await expectNothingOfTheDocument(await reader(SLACKBOT).get(link.path))
  })

  test('an address opens it; the visit and the per-reader totals name it; something else is refused with the form again', async () => {
    const link = await addLink(server, file.id, { access: 'email' })
    const someone = reader()
    const wrong = await someone.post(`${link.path}/reader`, { email: 'not an address' })
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('That is not an email address')
    const entered = await someone.post(`${link.path}/reader`, { email: '  Ada@Example.COM ' })
    expect(entered.status).toBe(303)
    expect(entered.headers.get('location')).toBe(`/base${link.path}`)
    expect(entered.headers.getSetCookie()[0]).toMatch(
      new RegExp(`^pdfshare_reader=[^;]+; Max-Age=43200; Path=/base${link.path}; HttpOnly; SameSite=Lax; Secure$`),
    )
    const page = await someone.get(link.path)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`<title>${TITLE}</title>`)
    expect((await someone.get(`${link.path}/file`)).status).toBe(200)
    const download = await someone.get(`${link.path}/download`)
    expect(download.status).toBe(200)
    await download.arrayBuffer()

    const visits = (await json(await api('GET', `/api/links/${link.id}/visits`))).data
    expect(visits[0]).toMatchObject({ reader: 'ada@example.com', viewed: true, downloaded: true })
    const totals = (await json(await api('GET', `/api/links/${link.id}/readers`))).data
    expect(totals).toEqual([
      { reader: 'ada@example.com', visits: 1, views: 1, downloads: 1, pages: 0, readingSeconds: 0, lastVisitAt: visits[0].at },
    ])
    const csv = await (await api('GET', `/api/links/${link.id}/visits.csv`)).text()
    expect(csv.split('\r\n')[0]).toEndWith(',tracked,reader')
    expect(csv.split('\r\n')[1]).toEndWith(',ada@example.com')
  })

  test('deny wins over allow; a domain entry is that domain only; an address denied later is out at once', async () => {
    const link = await addLink(server, file.id, { access: 'email', allow: ['@acme.test', 'bob@partner.test'], deny: ['eve@acme.test'] })
    for (const [address, status] of [
      ['ann@acme.test', 303],
      ['bob@partner.test', 303],
      ['eve@acme.test', 403],
      ['carl@partner.test', 403],
      ['ann@eu.acme.test', 403],
    ] as const) {
      const response = await reader().post(`${link.path}/reader`, { email: address })
      expect(`${address} ${response.status}`).toBe(`${address} ${status}`)
      if (status === 403) expect(await expectNothingOfTheDocument(response)).toContain('may not open this document')
    }
    const ann = reader()
    await ann.post(`${link.path}/reader`, { email: 'ann@acme.test' })
    expect((await ann.get(`${link.path}/file`)).status).toBe(200)
    expect((await api('PATCH', `/api/links/${link.id}`, { deny: ['eve@acme.test', 'ann@acme.test'] })).status).toBe(200)
    expect((await ann.get(`${link.path}/file`)).status).toBe(403)
    expect(await (await ann.get(link.path)).text()).toContain('<title>Your email address</title>')
  })
})

describe('a link that asks for a verified address', () => {
  test('a code by mail opens it once; wrong codes count down; the mail says nothing of the document', async () => {
    const link = await addLink(server, file.id, { access: 'verified-email', allow: ['@board.test'] })
    const member = reader()
    const asked = await member.post(`${link.path}/reader`, { email: 'kim@board.test' })
    expect(asked.status).toBe(200)
    const codePage = await expectNothingOfTheDocument(asked)
    expect(codePage).toContain('We sent a 6-digit code to kim@board.test')
    expect(codePage).toContain('autocomplete="one-time-code" inputmode="numeric"')
    const code = await codeMailed('kim@board.test')
    const mail = smtp.received.find((one) => one.to.includes('kim@board.test'))!
    expect(mail.data).toMatch(/^From: pdfshare <pdf@example\.test>/m)
    expect(mail.data).not.toContain(TITLE)
    expect(mail.data).not.toContain('<img')
    // Only the hash is kept.
    const [row] = await server.ctx.db.orm.select().from(server.ctx.db.tables.readerCodes)
    expect(JSON.stringify(row)).not.toContain(code)
    // The admins' view of the outbox lists the mail by its neutral subject, never the code (the owner is the admin here).
    const outbox = JSON.stringify((await json(await api('GET', '/api/admin/mail'))).data)
    expect(outbox).toContain('Your code to open a shared document')
    expect(outbox).not.toContain(code)

    const wrongCode = code === '000000' ? '000001' : '000000'
    const wrong = await member.post(`${link.path}/code`, { email: 'kim@board.test', code: wrongCode })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('Wrong code. 4 tries left.')
    expect((await member.get(`${link.path}/file`)).status).toBe(403)

    const right = await member.post(`${link.path}/code`, { email: 'kim@board.test', code })
    expect(right.status).toBe(303)
    expect(member.jar.get('pdfshare_reader')).toContain('.v.')
    expect((await member.get(`${link.path}/file`)).status).toBe(200)
    // Once: the same code again opens nothing for another browser.
    const again = await reader().post(`${link.path}/code`, { email: 'kim@board.test', code })
    expect(again.status).toBe(401)
    expect(await again.text()).toContain('expired or was tried too often')
  })

  test('five wrong codes kill the code, even the right one after them; parallel guesses get no more than five', async () => {
    const link = await addLink(server, file.id, { access: 'verified-email' })
    const guesser = reader()
    await guesser.post(`${link.path}/reader`, { email: 'lee@example.test' })
    const code = await codeMailed('lee@example.test')
    const others = ['0', '1', '2', '3', '4', '5', '6', '7'].map((digit) => digit.repeat(6)).filter((guess) => guess !== code)
    const answers = await Promise.all(others.map((guess) => guesser.post(`${link.path}/code`, { email: 'lee@example.test', code: guess })))
    const texts = await Promise.all(answers.map((answer) => answer.text()))
    expect(texts.filter((text) => text.includes('Wrong code')).length).toBe(4)
    expect(texts.filter((text) => text.includes('expired or was tried too often')).length).toBe(others.length - 4)
    const right = await guesser.post(`${link.path}/code`, { email: 'lee@example.test', code })
    expect(right.status).toBe(401)
    expect((await guesser.get(`${link.path}/file`)).status).toBe(403)
  })

  test('an address the lists keep out gets no code (answered like one that did); an unverified address does not open a verified link', async () => {
    const link = await addLink(server, file.id, { access: 'verified-email', allow: ['@board.test'], deny: ['mal@board.test'] })
    const { mailOutbox } = server.ctx.db.tables
    for (const address of ['mal@board.test', 'out@elsewhere.test']) {
      const someone = reader()
      expect((await someone.post(`${link.path}/reader`, { email: address })).status).toBe(200)
      expect((await someone.post(`${link.path}/code`, { email: address, code: '123456' })).status).toBe(401)
      expect((await someone.get(`${link.path}/file`)).status).toBe(403)
      // Nothing was queued for it (the outbox row is written with the answer).
      expect((await server.ctx.db.orm.select().from(mailOutbox)).filter((mail) => mail.toAddress === address)).toEqual([])
    }
    expect(mailsTo('mal@board.test') + mailsTo('out@elsewhere.test')).toBe(0)
    // An address given at an email-only link is no proof for a verified one.
    expect((await api('PATCH', `/api/links/${link.id}`, { access: 'email' })).status).toBe(200)
    const guest = reader()
    expect((await guest.post(`${link.path}/reader`, { email: 'pat@board.test' })).status).toBe(303)
    expect((await guest.get(`${link.path}/file`)).status).toBe(200)
    expect((await api('PATCH', `/api/links/${link.id}`, { access: 'verified-email' })).status).toBe(200)
    expect((await guest.get(`${link.path}/file`)).status).toBe(403)
  })

  test(`${CODE_LIMITS.perAddress} codes an hour to one address, whoever asks; then 429 with Retry-After, and no mail`, async () => {
    const now = Date.UTC(2026, 10, 25, 10, 0, 0)
    const app = createApp({ ...server.ctx, now: () => now })
    const link = await addLink(server, file.id, { access: 'verified-email' })
    const ask = (ip: string) =>
      app.handle(
        new Request(`${BASE}${link.path}/reader`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': FIREFOX, 'x-forwarded-for': ip },
          body: form({ email: 'flood@example.test' }),
        }),
      )
    for (let i = 0; i < CODE_LIMITS.perAddress; i++) expect((await ask(`203.0.113.${i + 1}`)).status).toBe(200)
    const refused = await ask('203.0.113.99')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBe(3600)
    expect(await refused.text()).toContain('Too many codes')
    const { mailOutbox } = server.ctx.db.tables
    const queued = (await server.ctx.db.orm.select().from(mailOutbox)).filter((mail) => mail.toAddress === 'flood@example.test')
    expect(queued.length).toBe(CODE_LIMITS.perAddress)
  })
})

describe('an agreement', () => {
  test('shown as written after the other gates, accepted once per version, recorded with the address and the words accepted', async () => {
    const words = 'Confidential.\n<b>Do not share</b> & do not copy.'
    const link = await addLink(server, file.id, { access: 'email', agreement: words, password: 'board only' })
    const someone = reader()
    // The password first, then the address, then the agreement.
    expect(await (await someone.get(link.path)).text()).toContain('<title>Password required</title>')
    expect((await someone.post(`${link.path}/reader`, { email: 'ann@example.test' })).status).toBe(404)
    expect((await someone.post(`${link.path}/agreement`, { version: '1', accept: 'yes' })).status).toBe(404)
    expect((await someone.post(link.path, { password: 'board only' })).status).toBe(303)
    expect(await (await someone.get(link.path)).text()).toContain('<title>Your email address</title>')
    expect((await someone.post(`${link.path}/reader`, { email: 'ann@example.test' })).status).toBe(303)
    const shown = await someone.get(link.path)
    const html = await expectNothingOfTheDocument(shown)
    expect(html).toContain('Confidential.\n&lt;b&gt;Do not share&lt;/b&gt; &amp; do not copy.')
    expect(html).toContain('name="version" value="1"')
    expect((await someone.get(`${link.path}/file`)).status).toBe(403)

    const accepted = await someone.post(`${link.path}/agreement`, { version: '1', accept: 'yes' })
    expect(accepted.status).toBe(303)
    expect(await (await someone.get(link.path)).text()).toContain(`<title>${TITLE}</title>`)
    expect((await someone.get(`${link.path}/file`)).status).toBe(200)

    // New words are a new version: accepted again, and both versions stay with their acceptances.
    const changed = await json(await api('PATCH', `/api/links/${link.id}`, { agreement: 'Confidential, version two.' }))
    expect(changed.data).toMatchObject({ agreement: 'Confidential, version two.', agreementVersion: 2 })
    expect((await someone.get(`${link.path}/file`)).status).toBe(403)
    const stale = await someone.post(`${link.path}/agreement`, { version: '1', accept: 'yes' })
    expect(stale.status).toBe(409)
    expect(await stale.text()).toContain('Confidential, version two.')
    expect((await someone.post(`${link.path}/agreement`, { version: '2', accept: 'yes' })).status).toBe(303)

    const listed = (await json(await api('GET', `/api/links/${link.id}/acceptances`))).data
    expect(listed.acceptances.map((one: { version: number; reader: string }) => [one.version, one.reader])).toEqual([
      [2, 'ann@example.test'],
      [1, 'ann@example.test'],
    ])
    expect(listed.texts.map((one: { version: number; text: string }) => [one.version, one.text]).sort()).toEqual([
      [1, words],
      [2, 'Confidential, version two.'],
    ])
    expect((await json(await api('GET', `/api/files/${file.id}/acceptances`))).data.acceptances.length).toBeGreaterThanOrEqual(2)
  })
})

describe('acceptances are bounded', () => {
  test('a reader with an address is recorded once per version; a client that drops the cookie writes at most ACCEPTANCES_PER_HOUR rows a link', async () => {
    const link = await addLink(server, file.id, { agreement: 'Terms for everyone.' })
    const count = async () => (await json(await api('GET', `/api/links/${link.id}/acceptances`))).data.acceptances.length
    // A client that never keeps the cookie: each POST is a fresh acceptance, from one address.
    const flooder = reader()
    const statuses: number[] = []
    for (let i = 0; i < ACCEPTANCES_PER_HOUR + 5; i++) {
      flooder.jar.clear()
      statuses.push((await flooder.post(`${link.path}/agreement`, { version: '1', accept: 'yes' })).status)
    }
    expect(statuses.filter((status) => status === 303)).toHaveLength(ACCEPTANCES_PER_HOUR)
    expect(statuses.slice(ACCEPTANCES_PER_HOUR)).toEqual(Array(5).fill(429))
    expect(await count()).toBe(ACCEPTANCES_PER_HOUR)
    // Someone else, from another address, is not held up by it.
    expect((await reader().post(`${link.path}/agreement`, { version: '1', accept: 'yes' })).status).toBe(303)
    expect(await count()).toBe(ACCEPTANCES_PER_HOUR + 1)

    // At a link that knows its readers' addresses, the same reader accepting again adds no row.
    const known = await addLink(server, file.id, { access: 'email', agreement: 'Terms for named readers.' })
    const ann = reader()
    await ann.post(`${known.path}/reader`, { email: 'ann@example.test' })
    for (let i = 0; i < 3; i++) {
      // Without the acceptance's cookie (another browser of hers, or cleared): her address cookie stays.
      for (const name of [...ann.jar.keys()]) if (name.includes('agree')) ann.jar.delete(name)
      expect((await ann.post(`${known.path}/agreement`, { version: '1', accept: 'yes' })).status).toBe(303)
    }
    expect((await json(await api('GET', `/api/links/${known.id}/acceptances`))).data.acceptances).toHaveLength(1)
  })
})

describe('erasing a reader', () => {
  test("one address goes from every visit and acceptance of the owner's files, and only theirs", async () => {
    const link = await addLink(server, file.id, { access: 'email', agreement: 'Terms.' })
    const zoe = reader()
    await zoe.post(`${link.path}/reader`, { email: 'zoe@example.test' })
    await zoe.post(`${link.path}/agreement`, { version: '1', accept: 'yes' })
    await zoe.get(link.path)
    // Another owner's reader with the same address keeps theirs.
    const other = await server.user('gate-other')
    const otherFile = await uploadPdf(server, other, { bytes: makePdf({ pages: 1 }), name: 'other.pdf' })
    const otherLink = await addLink(server, otherFile.id, { access: 'email' })
    const elsewhere = reader()
    await elsewhere.post(`${otherLink.path}/reader`, { email: 'zoe@example.test' })
    await elsewhere.get(otherLink.path)

    const erased = await json(await api('POST', '/api/readers/erase', { address: 'ZOE@example.test' }))
    expect(erased.data).toEqual({ visits: 1, acceptances: 1, events: 0, deliveries: 0, mails: 0, cachedFiles: 0 })
    const visits = (await json(await api('GET', `/api/links/${link.id}/visits`))).data
    expect(visits.length).toBe(1)
    expect(visits[0].reader).toBeNull()
    expect((await json(await api('GET', `/api/links/${link.id}/readers`))).data).toEqual([])
    expect((await json(await api('GET', `/api/links/${link.id}/acceptances`))).data.acceptances[0].reader).toBeNull()
    const theirs = await server.call('GET', `/api/links/${otherLink.id}/visits`, { token: other.token })
    expect((await json(theirs)).data[0].reader).toBe('zoe@example.test')
    // The audit log says it happened, without the address.
    const audit = JSON.stringify((await json(await api('GET', '/api/audit?action=reader.erased'))).data)
    expect(audit).toContain('reader.erased')
    expect(audit).not.toContain('zoe@')
    expect((await api('POST', '/api/readers/erase', { address: 'nobody' })).status).toBe(400)
  })
})
