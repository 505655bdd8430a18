import { describe, expect, test } from 'bun:test'
import { crossSiteCookiesWork, embedOriginOf, framedByAllowedOrigin } from '../../src/core/links/embed-origins'
import { makePdf } from '../../scripts/support/pdf'
import { startTestApp } from '../support/harness'
import { addLink, linkViews } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { browserClients } from '../support/browser-client'

// A link's page inside another site's frame (docs/share-page.md, Embedding): only the sites its `embedOrigins`
// names may frame its pages (frame-ancestors), its readers' cookies are made to work inside such a frame
// (SameSite=None; Secure; Partitioned), and a frame on one of those sites counts as a view. Chromium shows it for
// real in test/e2e/embedding.test.ts.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_MAX_VIEWS_PER_ADDRESS: '0' })
const owner = await server.user('embed-owner')
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'handbook.pdf' })
const INTRANET = 'https://intranet.example.com'
const WIKI = 'https://wiki.example.com:8443'

const readers = browserClients(server, '198.18')
/** A reader's browser: one address, one cookie jar, the Set-Cookie lines it was given; follows nothing by itself. */
const reader = (headers: Record<string, string> = {}) => readers({ headers })

/** The headers Chromium sends with a frame's first request, on a page of `origin`. */
const framedFrom = (origin: string) => ({
  'sec-fetch-dest': 'iframe',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'cross-site',
  referer: `${origin}/handbook`,
})
/**
 * What Chromium sends with a form posted inside that frame: the form is the framed page's own, so the request is
 * same-origin (a cross-site POST to a gate form is refused: test/share/gate-forms-cross-site.test.ts).
 */
const FORM_IN_FRAME = { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'iframe', origin: 'https://pdf.example.test' }
const frameAncestorsOf = (response: Response) => /frame-ancestors ([^;]+)/.exec(response.headers.get('content-security-policy') ?? '')?.[1]

describe('the pages of a link other sites may frame', () => {
  test('a password link: its password page, a wrong password and the document list the sites; its cookies work in their frames', async () => {
    const link = await addLink(server, file.id, { password: 'open sesame', embedOrigins: [INTRANET, WIKI] })
    const framed = reader(framedFrom(INTRANET))
    const gate = await framed.send('GET', link.path)
    expect(gate.status).toBe(200)
    expect(frameAncestorsOf(gate)).toBe(`'self' ${INTRANET} ${WIKI}`)
    expect(gate.headers.get('content-security-policy')).toContain("form-action 'self'")
    expect(gate.headers.get('x-frame-options')).toBeNull()
    const wrong = await framed.send('POST', link.path, { form: { password: 'guess' }, headers: FORM_IN_FRAME })
    expect(wrong.status).toBe(401)
    expect(frameAncestorsOf(wrong)).toBe(`'self' ${INTRANET} ${WIKI}`)

    const unlocked = await framed.send('POST', link.path, { form: { password: 'open sesame' }, headers: FORM_IN_FRAME })
    expect(unlocked.status).toBe(303)
    const [unlock] = unlocked.headers.getSetCookie()
    expect(unlock).toStartWith('pdfshare_unlock=')
    expect(unlock).toEndWith(`; Path=/base${link.path}; HttpOnly; SameSite=None; Secure; Partitioned`)

    const page = await framed.send('GET', link.path, { headers: { 'sec-fetch-site': 'same-origin', referer: '' } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('data-file=')
    expect(frameAncestorsOf(page)).toBe(`'self' ${INTRANET} ${WIKI}`)
    expect(page.headers.get('content-security-policy')).toContain("form-action 'none'")
    const cookies = page.headers.getSetCookie()
    expect(cookies.map((cookie) => cookie.split('=')[0])).toEqual(['pdfshare_seen', 'pdfshare_visit'])
    for (const cookie of cookies) expect(cookie).toEndWith('; HttpOnly; SameSite=None; Secure; Partitioned')
    expect((await framed.send('GET', `${link.path}/file`)).status).toBe(200)
  })

  test('a link that asks for an address and an agreement: both pages list the sites, and so do their cookies', async () => {
    const link = await addLink(server, file.id, { access: 'email', agreement: 'Internal only.', embedOrigins: [INTRANET] })
    const framed = reader(framedFrom(INTRANET))
    const address = await framed.send('GET', link.path)
    expect(await address.text()).toContain('name="email"')
    expect(frameAncestorsOf(address)).toBe(`'self' ${INTRANET}`)
    const given = await framed.send('POST', `${link.path}/reader`, { form: { email: 'ada@example.com' }, headers: FORM_IN_FRAME })
    expect(given.status).toBe(303)
    expect(given.headers.getSetCookie()[0]).toEndWith('; SameSite=None; Secure; Partitioned')
    const agreement = await framed.send('GET', link.path)
    expect(await agreement.text()).toContain('Internal only.')
    expect(frameAncestorsOf(agreement)).toBe(`'self' ${INTRANET}`)
    const accepted = await framed.send('POST', `${link.path}/agreement`, { form: { version: '1', accept: 'yes' }, headers: FORM_IN_FRAME })
    expect(accepted.status).toBe(303)
    expect(accepted.headers.getSetCookie()[0]).toEndWith('; SameSite=None; Secure; Partitioned')
    expect((await framed.send('GET', link.path)).status).toBe(200)
  })

  test('a link without embedOrigins: frame-ancestors only itself, SameSite=Lax cookies, wherever the request comes from', async () => {
    const link = await addLink(server, file.id, { password: 'open sesame' })
    const framed = reader(framedFrom(INTRANET))
    expect(frameAncestorsOf(await framed.send('GET', link.path))).toBe("'self'")
    const unlocked = await framed.send('POST', link.path, { form: { password: 'open sesame' }, headers: FORM_IN_FRAME })
    expect(unlocked.headers.getSetCookie()[0]).toEndWith('; HttpOnly; SameSite=Lax; Secure')
    const page = await framed.send('GET', link.path)
    expect(frameAncestorsOf(page)).toBe("'self'")
    for (const cookie of page.headers.getSetCookie()) expect(cookie).toEndWith('; SameSite=Lax; Secure')
  })

  test("a link that is off, expired or used up: its 410 page shows in the sites' frames too, not in others'", async () => {
    const frameAncestors = (response: Response) =>
      /frame-ancestors ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
    const off = await reader().send('GET', (await addLink(server, file.id, { disabled: true, embedOrigins: [INTRANET, WIKI] })).path)
    expect(off.status).toBe(410)
    expect(frameAncestors(off)).toBe(`'self' ${INTRANET} ${WIKI}`)
    const expired = await addLink(server, file.id, { expiresAt: Date.now() - 60_000, embedOrigins: [INTRANET] })
    expect(frameAncestors(await reader().send('GET', expired.path))).toBe(`'self' ${INTRANET}`)
    const plain = await reader().send('GET', (await addLink(server, file.id, { disabled: true })).path)
    expect([plain.status, frameAncestors(plain)]).toEqual([410, "'self'"])
  })

  test('its raw PDF is still framed by our own pages only (the viewer fetches it; no site shows it in a frame)', async () => {
    const link = await addLink(server, file.id, { embedOrigins: [INTRANET] })
    const bytes = await reader().send('GET', `${link.path}/file`)
    expect(bytes.status).toBe(200)
    expect(bytes.headers.get('content-security-policy')).toBe("sandbox; frame-ancestors 'self'")
  })
})

describe('views of a framed page', () => {
  test('a frame on one of the sites counts as a view; on another site, or of a link that names none, it does not', async () => {
    const embeddable = await addLink(server, file.id, { embedOrigins: [INTRANET] })
    const plain = await addLink(server, file.id)
    await reader(framedFrom(INTRANET)).send('GET', embeddable.path)
    expect(await linkViews(server, embeddable.id)).toBe(1)
    await reader(framedFrom('https://elsewhere.example')).send('GET', embeddable.path)
    await reader({ ...framedFrom(INTRANET), referer: '' }).send('GET', embeddable.path) // the site sends no Referer
    expect(await linkViews(server, embeddable.id)).toBe(1)
    // Our own page navigating inside the frame (after a gate): the browser showed it there, so the site is one of them.
    await reader({ ...framedFrom(INTRANET), 'sec-fetch-site': 'same-origin', referer: '' }).send('GET', embeddable.path)
    expect(await linkViews(server, embeddable.id)).toBe(2)
    await reader(framedFrom(INTRANET)).send('GET', plain.path)
    expect(await linkViews(server, plain.id)).toBe(0)
    await reader().send('GET', plain.path) // opened on its own: counted as ever
    expect(await linkViews(server, plain.id)).toBe(1)
  })

  test('a link with a view limit: a frame on one of the sites is granted its bytes, a frame elsewhere is not', async () => {
    const link = await addLink(server, file.id, { maxViews: 5, embedOrigins: [INTRANET] })
    const inside = reader(framedFrom(INTRANET))
    expect(await (await inside.send('GET', link.path)).text()).not.toContain('data-ungranted')
    expect(inside.jar.has('pdfshare_grant')).toBe(true)
    expect(
      (await inside.send('GET', `${link.path}/file`, { headers: { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' } })).status,
    ).toBe(200)
    const elsewhere = reader(framedFrom('https://elsewhere.example'))
    expect(await (await elsewhere.send('GET', link.path)).text()).toContain('data-ungranted')
    expect((await elsewhere.send('GET', `${link.path}/file`)).status).toBe(403)
    expect(await linkViews(server, link.id)).toBe(1)
  })
})

describe('the rules', () => {
  test('an origin is https (or http on a loopback host), with no path, query, credentials or pattern', () => {
    expect(embedOriginOf(' HTTPS://Intranet.Example.COM:443/ ')).toBe('https://intranet.example.com')
    expect(embedOriginOf('https://bücher.example')).toBe('https://xn--bcher-kva.example')
    expect(embedOriginOf('http://localhost:5173')).toBe('http://localhost:5173')
    expect(embedOriginOf('http://[::1]:8080')).toBe('http://[::1]:8080')
    for (const refused of [
      'http://intranet.example.com',
      'http://10.0.0.2',
      'https://user:pw@intranet.example.com',
      'https://intranet.example.com/#x',
      'https://*.example.com',
      'https://intranet.example.com.',
      "https://a.example 'self'",
      'https://a.example;script-src *',
      'data:text/html,hi',
      '*',
      '',
    ])
      expect(embedOriginOf(refused)).toBeUndefined()
  })

  test('cookies can work in other sites\u2019 frames on an https public URL or on localhost, not over plain http elsewhere', () => {
    expect(crossSiteCookiesWork('https://pdf.example.com/base')).toBe(true)
    expect(crossSiteCookiesWork('http://localhost:3000')).toBe(true)
    expect(crossSiteCookiesWork('http://127.0.0.1:3000')).toBe(true)
    expect(crossSiteCookiesWork('http://pdf.lan:3000')).toBe(false)
  })

  test('a frame request is one of the sites by its Referer, or by coming from our own page inside the frame', () => {
    const link = { embedOrigins: `${INTRANET}\n${WIKI}` }
    const frame = { fetchDest: 'iframe', fetchSite: 'cross-site' }
    expect(framedByAllowedOrigin(link, { ...frame, referrer: `${WIKI}/space/page?x=1` })).toBe(true)
    expect(framedByAllowedOrigin(link, { ...frame, referrer: 'https://wiki.example.com/space' })).toBe(false) // another port
    expect(framedByAllowedOrigin(link, { ...frame, referrer: null })).toBe(false)
    expect(framedByAllowedOrigin(link, { ...frame, referrer: 'not a url' })).toBe(false)
    expect(framedByAllowedOrigin(link, { fetchDest: 'iframe', fetchSite: 'same-origin', referrer: null })).toBe(true)
    expect(framedByAllowedOrigin(link, { fetchDest: 'document', fetchSite: 'cross-site', referrer: `${INTRANET}/` })).toBe(false)
    expect(framedByAllowedOrigin({ embedOrigins: '' }, { fetchDest: 'iframe', fetchSite: 'same-origin', referrer: null })).toBe(false)
  })
})
