import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makePdf } from '../../scripts/support/pdf'
import { startTestApp } from '../support/harness'
import { addLink, type TestLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// The share page's forms (password, address, code, agreement) refuse a POST another site makes a reader's browser
// send (docs/share-page.md, Safety): an explicit `Sec-Fetch-Site: cross-site`, or, from a browser that sends no
// Sec-Fetch-Site, an `Origin` of another site. A request with neither header (an old browser, curl) still works.
// The attack of security issue 33: a page elsewhere posts the agreement form, and the reader "accepted" an NDA
// they never saw (a link other sites may frame sends its cookies cross-site).
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_SMTP_URL: 'smtp://127.0.0.1:9' })
const owner = await server.user('cross-site-owner')
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1 }), name: 'terms.pdf' })
const OWN_ORIGIN = 'https://pdf.example.test'

const CROSS_SITE: Record<string, string>[] = [
  { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
  { 'sec-fetch-site': 'cross-site' },
  { origin: 'https://evil.example' }, // a browser without Fetch Metadata
  { origin: 'https://pdf.example.test.evil.example' },
]
const ALLOWED: Record<string, string>[] = [
  {}, // curl, or a browser that sends neither
  { 'sec-fetch-site': 'same-origin', origin: OWN_ORIGIN },
  { origin: OWN_ORIGIN },
  { origin: 'null' }, // a same-origin form of a no-referrer page, in a browser without Fetch Metadata
  { 'sec-fetch-site': 'same-site', origin: 'https://www.example.test' },
  { 'sec-fetch-site': 'none' },
]

let addresses = 0
const post = (path: string, fields: Record<string, string>, headers: Record<string, string>) =>
  server.call('POST', path, {
    headers: {
      'user-agent': FIREFOX,
      'x-forwarded-for': `198.51.200.${++addresses & 255}`,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  })
const acceptancesOf = async (link: TestLink) => {
  const { acceptances } = server.ctx.db.tables
  return (await server.ctx.db.orm.select().from(acceptances).where(eq(acceptances.linkId, link.id))).length
}

describe('the gate forms refuse a POST from another site', () => {
  test('the agreement: a cross-site POST is a 403 and records no acceptance; without those headers it is accepted', async () => {
    const link = await addLink(server, file.id, { agreement: 'Do not share.', embedOrigins: ['https://partner.example'] })
    for (const headers of CROSS_SITE) {
      const refused = await post(`${link.path}/agreement`, { version: '1', accept: 'yes' }, headers)
      expect(`${JSON.stringify(headers)} ${refused.status}`).toBe(`${JSON.stringify(headers)} 403`)
      expect(refused.headers.getSetCookie()).toEqual([])
      expect(await refused.text()).toContain('sent from another site')
    }
    expect(await acceptancesOf(link)).toBe(0)
    for (const headers of ALLOWED) {
      const accepted = await post(`${link.path}/agreement`, { version: '1', accept: 'yes' }, headers)
      expect(`${JSON.stringify(headers)} ${accepted.status}`).toBe(`${JSON.stringify(headers)} 303`)
    }
    expect(await acceptancesOf(link)).toBe(ALLOWED.length)
  })

  test('the password, the address and the code: a cross-site POST is a 403 and lets nobody in', async () => {
    const password = await addLink(server, file.id, { password: 'open sesame' })
    const email = await addLink(server, file.id, { access: 'email' })
    const verified = await addLink(server, file.id, { access: 'verified-email' })
    const forms: [string, Record<string, string>, number][] = [
      [password.path, { password: 'open sesame' }, 303],
      [`${email.path}/reader`, { email: 'ada@example.test' }, 303],
      [`${email.path}/code`, { email: 'ada@example.test', code: '123456' }, 303],
      [`${verified.path}/reader`, { email: 'ada@example.test' }, 200],
    ]
    for (const [path, fields, passes] of forms) {
      for (const headers of CROSS_SITE) {
        const refused = await post(path, fields, headers)
        expect(`${path} ${JSON.stringify(headers)} ${refused.status}`).toBe(`${path} ${JSON.stringify(headers)} 403`)
        expect(refused.headers.getSetCookie()).toEqual([])
      }
      expect((await post(path, fields, ALLOWED[1]!)).status).toBe(passes)
    }
    // Nothing was mailed for the refused requests: one code, for the one allowed request.
    const { mailOutbox } = server.ctx.db.tables
    expect((await server.ctx.db.orm.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'ada@example.test'))).length).toBe(1)
  })
})
