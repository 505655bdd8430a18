import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makePdf } from '../../scripts/support/pdf'
import { untilDrawn } from '../support/busy'
import { json, startTestApp } from '../support/harness'
import { addLink, type TestLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'
import { browserClients } from '../support/browser-client'
import { readerCookieValue } from '../../src/core/share/reader-cookies'
import { REFUSAL_LIMITS } from '../../src/core/share/reader-gate'

// Allow and deny lists compare one canonical spelling of an address (docs/readers.md, "Addresses"): a `+tag`
// delivered to the same mailbox, a quoted local part, `%` routing, a comment or a display name are never a way
// past a deny entry. The attack of security issue 33: with allow ["@acme.com"] and deny ["intern@acme.com"] (the
// docs' own example), `intern+nda@acme.com` and `"intern"@acme.com` got in and were served page images.
// The mail worker is not started: a code waits in the outbox, where the test reads it as the reader would.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_SMTP_URL: 'smtp://127.0.0.1:9' })
const owner = await server.user('spelling-owner')
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'nda.pdf' }, { title: 'NDA deck' })
const DOCS_EXAMPLE = { allow: ['@acme.com'], deny: ['intern@acme.com'] }

/** A reader's browser: one client address, one cookie jar. */
const reader = browserClients(server, '198.51')
let addresses = 0
const api = (method: string, path: string, body?: unknown) =>
  server.call(method, path, {
    token: owner.token,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
const { mailOutbox } = server.ctx.db.tables
const outboxTo = (address: string) => server.ctx.db.orm.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address))

/**
 * The whole attack at a verified-email link: ask for a code as `address`, type the code the mail holds (if one
 * was mailed), then fetch page 1 as an image. Answers what the reader got at each step.
 */
async function attackVerified(link: TestLink, address: string) {
  const someone = reader()
  const asked = await someone.post(`${link.path}/reader`, { email: address })
  const mailed = await outboxTo(address.trim().toLowerCase())
  const code = /\b(\d{6})\b/.exec(mailed.at(-1)?.textBody ?? '')?.[1] ?? '123456'
  const entered = await someone.post(`${link.path}/code`, { email: address, code })
  const image = await untilDrawn(() => someone.get(`${link.path}/pages/1?w=480`))
  return { asked: asked.status, mailed: mailed.length, entered: entered.status, image: image.status }
}

/** The attack at an email link: give `address`, then fetch page 1 as an image. */
async function attackEmail(link: TestLink, address: string) {
  const someone = reader()
  const given = await someone.post(`${link.path}/reader`, { email: address })
  const image = await untilDrawn(() => someone.get(`${link.path}/pages/1?w=480`))
  return { given: given.status, image: image.status, text: await given.text() }
}

/**
 * Spellings of intern@acme.com that a mail server (or nodemailer, before it) delivers to intern's mailbox: the
 * first three are addresses, denied by the canonical rule; the others are not addresses at all (400).
 */
const INTERN_SPELLINGS = [
  'intern+nda@acme.com',
  'Intern+NDA@ACME.com',
  'intern@ａｃｍｅ.com', // full-width letters: the same domain once IDNA maps it
  '"intern"@acme.com',
  '"intern+x"@acme.com',
  'intern%acme.com@acme.com',
  'intern(comment)@acme.com',
  'someone<intern@acme.com>',
  'x,intern@acme.com',
]
const isAddress = (spelling: string) => INTERN_SPELLINGS.indexOf(spelling) < 3

describe('the docs example: allow @acme.com, deny intern@acme.com', () => {
  test('intern+nda@ and "intern"@ get no code and no page image at a verified-email link', async () => {
    const link = await addLink(server, file.id, { access: 'verified-email', ...DOCS_EXAMPLE })
    for (const address of INTERN_SPELLINGS) {
      const got = await attackVerified(link, address)
      const [asked, entered] = isAddress(address) ? [200, 401] : [400, 400]
      expect(`${address}: ${got.asked}, ${got.mailed} mailed, code ${got.entered}, image ${got.image}`).toBe(
        `${address}: ${asked}, 0 mailed, code ${entered}, image 403`,
      )
    }
    // Not an oracle either: a refused address is answered like an allowed one, with the code form (docs/readers.md).
    const refused = await reader().post(`${link.path}/reader`, { email: 'intern+nda@acme.com' })
    expect(refused.status).toBe(200)
    expect(await refused.text()).toContain('We sent a 6-digit code to intern+nda@acme.com')
    // Someone else at acme.com still gets in, with a +tag too: the code goes to the address as typed.
    const ada = await attackVerified(link, 'ada+deck@acme.com')
    expect(ada).toEqual({ asked: 200, mailed: 1, entered: 303, image: 200 })
  })

  test('at an email link: intern+nda@ is denied (403), the quoted and routed spellings are not addresses (400); no page image', async () => {
    const link = await addLink(server, file.id, { access: 'email', ...DOCS_EXAMPLE })
    for (const address of INTERN_SPELLINGS) {
      const got = await attackEmail(link, address)
      const refusal = isAddress(address) ? 403 : 400
      expect(`${address}: ${got.given}, image ${got.image}`).toBe(`${address}: ${refusal}, image 403`)
      if (refusal === 400) expect(got.text).toContain('That is not an email address')
    }
    expect(await attackEmail(link, 'ada+deck@acme.com')).toMatchObject({ given: 303, image: 200 })
  })

  test('the allow list follows the same rule: ada@ lets in ada+tag@, and no other spelling lets in a stranger', async () => {
    const link = await addLink(server, file.id, { access: 'email', allow: ['ada@acme.com'] })
    expect(await attackEmail(link, 'ada+deck@acme.com')).toMatchObject({ given: 303, image: 200 })
    for (const address of ['"ada"@acme.com', 'ada%acme.com@evil.test', 'x<ada@acme.com>', 'eve+ada@acme.com'])
      expect((await attackEmail(link, address)).image).toBe(403)
  })

  test('a list stored before the rule (intern+old@, upper case) is compared canonically too', async () => {
    const link = await addLink(server, file.id, { access: 'email', allow: ['@ACME.com'], deny: ['Intern+Old@acme.com'] })
    expect((await attackEmail(link, 'intern@acme.com')).given).toBe(403)
    expect((await attackEmail(link, 'intern+new@acme.com')).given).toBe(403)
    expect((await attackEmail(link, 'bob@acme.com')).given).toBe(303)
  })
})

describe('a reader cookie signed before the rule', () => {
  test('for a spelling the rule refuses (a list, a quoted local part) opens nothing any more', async () => {
    const link = await addLink(server, file.id, { access: 'email', ...DOCS_EXAMPLE })
    for (const address of ['x,intern@acme.com', '"intern"@acme.com']) {
      const value = readerCookieValue(server.ctx.signingKey, link, { address, verified: false }, Date.now())
      const image = await server.call('GET', `${link.path}/pages/1?w=480`, {
        headers: { 'user-agent': FIREFOX, 'x-forwarded-for': '198.51.99.1', cookie: `pdfshare_reader=${value}` },
      })
      expect(`${address} ${image.status}`).toBe(`${address} 403`)
    }
  })
})

describe('saving a link: list entries are canonicalised, and a quoted or % entry is refused', () => {
  test('entries are kept in their canonical spelling; "x"@, x%y@ and x<y@z> are a 400 naming the entry', async () => {
    const created = await api('POST', `/api/files/${file.id}/links`, {
      access: 'email',
      allow: ['@ACME.com', 'Ada+Work@acme.com'],
      deny: ['Intern+NDA@acme.com', 'intern@acme.com', 'bob@ａｃｍｅ.com'],
    })
    expect(created.status).toBe(201)
    const link = (await json(created)).data
    expect([link.allow, link.deny]).toEqual([
      ['@acme.com', 'ada@acme.com'],
      ['intern@acme.com', 'bob@acme.com'],
    ])
    for (const [entry, words] of [
      ['"intern"@acme.com', 'quoted'],
      ['intern%acme.com@acme.com', '%'],
      ['x<intern@acme.com>', 'neither'],
      ['intern(x)@acme.com', 'neither'],
    ] as const) {
      const refused = await api('PATCH', `/api/links/${link.id}`, { deny: [entry] })
      expect(`${entry} ${refused.status}`).toBe(`${entry} 400`)
      const body = await json(refused)
      expect(body.code).toBe('invalid_request')
      expect(body.error).toContain(JSON.stringify(entry))
      expect(body.error).toContain(words)
    }
    // Nothing was lost by the refusals.
    expect((await json(await api('GET', `/api/links/${link.id}`))).data.deny).toEqual(['intern@acme.com', 'bob@acme.com'])
  })
})

describe('codes to one mailbox are counted once, however it is spelled', () => {
  test('intern+1@ … intern+6@: the sixth code of the hour is refused (429), as for one spelling', async () => {
    const link = await addLink(server, file.id, { access: 'verified-email' })
    const statuses: number[] = []
    for (let n = 1; n <= 6; n++) statuses.push((await reader().post(`${link.path}/reader`, { email: `flood+${n}@acme.com` })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})

describe('the lists do not answer who is on them', () => {
  /** One client trying addresses: its own network address, a fresh cookie jar per try. */
  const client = (ip: string) => (path: string, email: string) =>
    server.call('POST', path, {
      headers: { 'user-agent': FIREFOX, 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, code: '123456' }).toString(),
    })

  test(`an email link refuses one client ${REFUSAL_LIMITS.perClient} addresses an hour; then every address, allowed ones too (429)`, async () => {
    const link = await addLink(server, file.id, { access: 'email', ...DOCS_EXAMPLE })
    const prober = client('203.0.113.77')
    // Allowed addresses cost nothing: a reader who is let in is not counted.
    for (let n = 0; n < 3; n++) expect((await prober(`${link.path}/reader`, `ada${n}@acme.com`)).status).toBe(303)
    for (let n = 0; n < REFUSAL_LIMITS.perClient; n++)
      expect((await prober(`${link.path}/reader`, `guess${n}@elsewhere.test`)).status).toBe(403)
    for (const path of [`${link.path}/reader`, `${link.path}/code`]) {
      const refused = await prober(path, 'ada@acme.com')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await refused.text()).toContain('Too many addresses were tried')
    }
    // Another client is not held back.
    expect((await client('203.0.113.78')(`${link.path}/reader`, 'ada@acme.com')).status).toBe(303)
  })

  test('a verified-email link answers a refused address exactly as an allowed one, at the address form and the code form', async () => {
    const link = await addLink(server, file.id, { access: 'verified-email', allow: ['@board.test'], deny: ['mal@board.test'] })
    const answer = async (path: string, email: string) => {
      const response = await client(`203.0.114.${++addresses & 255}`)(path, email)
      return `${response.status} ${(await response.text()).replaceAll(email, 'ADDRESS')}`
    }
    for (const form of ['reader', 'code']) {
      const allowed = await answer(`${link.path}/${form}`, 'bea@board.test')
      for (const refused of ['mal@board.test', 'mal+x@board.test', 'out@elsewhere.test'])
        expect(await answer(`${link.path}/${form}`, refused)).toBe(allowed)
    }
  })
})
