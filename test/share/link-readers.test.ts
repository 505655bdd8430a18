import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { createApp } from '../../src/app'
import { PLACEHOLDER_PREVIEW } from '../../src/core/previews/preview-service'
import { makePdf } from '../../scripts/support/pdf'
import { untilDrawn } from '../support/busy'
import { BASE, json, startTestApp } from '../support/harness'
import { addLink, changeLink, linkViews, type TestLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { browserNumber, FIREFOX, SAFARI_PHONE, SLACKBOT } from '../support/user-agents'

// What readers of a share link get (docs/share-page.md, Links readers see), through app.handle on a real libSQL file.
// X-Forwarded-For is trusted for one hop, so a test can stand for readers at different addresses.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0' })
const owner = await server.user('owner')
const TITLE = 'Merger plans 2027'
const DESCRIPTION = 'Only for the board'
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'merger-plans.pdf' }, { title: TITLE, desc: DESCRIPTION })
const PLACEHOLDER = readFileSync(PLACEHOLDER_PREVIEW.path)
const ROUTES = ['', '/file', '/download', '/preview.png'] as const

let addressCounter = 0
/** A reader at an address of its own, unless `ip` is given. */
const visit = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  server.call(method, path, {
    headers: { 'user-agent': FIREFOX, 'x-forwarded-for': `198.18.${++addressCounter >> 8}.${addressCounter & 255}`, ...headers },
  })
const fileViews = async () => (await json(await server.call('GET', `/api/files/${file.id}`, { token: owner.token }))).data.views as number
/** The name=value pairs of a response's Set-Cookie headers, as a browser would send them back. */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .join('; ')
const cookieNamed = (response: Response, name: string) => response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))
const unlockWith = (link: TestLink, password: string, headers: Record<string, string> = {}) =>
  server.call('POST', link.path, {
    body: new URLSearchParams({ password }).toString(),
    headers: { 'user-agent': FIREFOX, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.200', ...headers },
  })

/** Asserts that an answer shows nothing of the document: not its title, description, preview tags or bytes. */
async function expectNothingOfTheDocument(response: Response) {
  const body = Buffer.from(await response.arrayBuffer())
  const text = body.toString('latin1')
  expect(text).not.toContain(TITLE)
  expect(text).not.toContain(DESCRIPTION)
  expect(text).not.toContain('merger-plans')
  expect(text).not.toContain('og:')
  expect(text).not.toContain('twitter:')
  expect(text).not.toContain('preview.png')
  expect(text.startsWith('%PDF')).toBe(false)
  expect(response.headers.get('content-disposition')).toBeNull()
  return text
}

describe('links that are off, expired or used up: 410 on every route', () => {
  const states = [
    { state: 'disabled', options: { disabled: true }, words: 'This link has been turned off' },
    { state: 'expired', options: { expiresAt: Date.now() - 1000 }, words: 'This link expired on ' },
    { state: 'used_up', options: { maxViews: 3, views: 3 }, words: 'This link has reached its view limit' },
    // The owner's switch is the first reason: a link both off and expired says it is off.
    { state: 'disabled and expired', options: { disabled: true, expiresAt: Date.now() - 1000 }, words: 'This link has been turned off' },
  ]
  for (const { state, options, words } of states) {
    test(`${state}: the page, /file, /download and /preview.png answer 410, noindex, no-store, nothing of the document`, async () => {
      const link = await addLink(server, file.id, { ...options, password: state === 'expired' ? 'a password' : null })
      for (const route of ROUTES) {
        const response = await visit(link.path + route)
        expect(response.status, `${state} ${route}`).toBe(410)
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
        expect(response.headers.get('cache-control')).toBe('no-store')
        expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow')
        expect(response.headers.get('set-cookie')).toBeNull()
        const text = await expectNothingOfTheDocument(response)
        expect(text).toContain(words)
        expect(text).toContain('<meta name="robots" content="noindex, nofollow">')
      }
      // Nobody was counted on a link that is over.
      expect(await linkViews(server, link.id)).toBe(options.views ?? 0)
    })
  }

  test('a link that is not over still opens (the same file, another link)', async () => {
    const link = await addLink(server, file.id, { expiresAt: Date.now() + 60_000, maxViews: 10 })
    const response = await visit(link.path)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain(`<title>${TITLE}</title>`)
  })
})

describe('password links', () => {
  test('the password page leaks nothing: generic title, no description, no og tags; noindex, no-store; its form may post back', async () => {
    const link = await addLink(server, file.id, { password: 'open sesame' })
    const response = await visit(link.path)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow')
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'")
    expect(response.headers.get('set-cookie')).toBeNull()
    const page = await expectNothingOfTheDocument(response)
    expect(page).toContain('<title>Password required</title>')
    expect(page).not.toContain('name="description"')
    expect(page).toContain(`<form class="password-form" method="post" action="/base${link.path}">`)
    expect(page).toContain('name="password" type="password"')
    // The viewer page of a link without a password keeps form-action 'none'.
    const open = await visit((await addLink(server, file.id)).path)
    expect(open.headers.get('content-security-policy')).toContain("form-action 'none'")
    // Showing the password page is not a view.
    expect(await linkViews(server, link.id)).toBe(0)
    // Only a password link takes the form: a POST to any other link is a path that does not exist.
    expect((await unlockWith(await addLink(server, file.id), 'open sesame')).status).toBe(404)
  })

  test('without the unlock cookie /file and /download answer 401; the preview is the placeholder card, even once unlocked', async () => {
    const link = await addLink(server, file.id, { password: 'open sesame' })
    for (const route of ['/file', '/download']) {
      const response = await visit(link.path + route)
      expect(response.status).toBe(401)
      expect(response.headers.get('cache-control')).toBe('no-store')
      await expectNothingOfTheDocument(response)
    }
    const unlocked = cookiesOf(await unlockWith(link, 'open sesame'))
    for (const cookie of ['', unlocked]) {
      const preview = await visit(`${link.path}/preview.png`, cookie ? { cookie } : {})
      expect(preview.status).toBe(200)
      expect(preview.headers.get('content-type')).toBe('image/png')
      expect(preview.headers.get('etag')).toBeNull() // the default link's ETag carries the PDF's hash
      expect(Buffer.from(await preview.arrayBuffer()).equals(PLACEHOLDER)).toBe(true)
    }
    // The file's own preview is a rendering of page 1, not the placeholder.
    const rendered = await untilDrawn(() => visit(`/s/${new URL(file.shareUrl).pathname.split('/s/')[1]}/preview.png`))
    expect(Buffer.from(await rendered.arrayBuffer()).equals(PLACEHOLDER)).toBe(false)
  })

  test('the right password: 303 to the page with the unlock cookie; then the page, /file and /download work', async () => {
    const link = await addLink(server, file.id, { password: 'open sesame' })
    const response = await unlockWith(link, 'open sesame')
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`/base${link.path}`)
    const cookie = cookieNamed(response, 'pdfshare_unlock')!
    expect(cookie).toMatch(/^pdfshare_unlock=\d+\.[A-Za-z0-9_-]+; /)
    for (const part of ['Max-Age=43200', `Path=/base${link.path}`, 'HttpOnly', 'SameSite=Lax', 'Secure']) expect(cookie).toContain(part)
    const headers = { cookie: cookiesOf(response) }
    const page = await visit(link.path, headers)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(await page.text()).toContain(`<title>${TITLE}</title>`)
    expect(await linkViews(server, link.id)).toBe(1)
    const bytes = await visit(`${link.path}/file`, headers)
    expect(bytes.status).toBe(200)
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    // The bytes a cookie let in are kept by no cache (an open link's are private, no-cache).
    expect(bytes.headers.get('cache-control')).toBe('no-store')
    const ranged = await visit(`${link.path}/file`, { ...headers, range: 'bytes=0-99' })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('cache-control')).toBe('no-store')
    const download = await visit(`${link.path}/download`, headers)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toStartWith('attachment')
    expect(download.headers.get('cache-control')).toBe('no-store')
    const open = await addLink(server, file.id)
    expect((await visit(`${open.path}/file`)).headers.get('cache-control')).toBe('private, no-cache')
  })

  test('a wrong password: 401 with the form and "Wrong password", no cookie', async () => {
    const link = await addLink(server, file.id, { password: 'open sesame' })
    for (const password of ['open sesam', '', 'OPEN SESAME', 'x'.repeat(5000)]) {
      const response = await unlockWith(link, password, { 'x-forwarded-for': '203.0.113.7' })
      expect(response.status).toBe(401)
      expect(response.headers.get('set-cookie')).toBeNull()
      const page = await expectNothingOfTheDocument(response)
      expect(page).toContain('Wrong password')
      expect(page).toContain('name="password"')
    }
    // Not a form at all: wrong too, never a 500.
    const json = await server.call('POST', link.path, {
      body: JSON.stringify({ password: 'open sesame' }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.8' },
    })
    expect(json.status).toBe(401)
  })

  test('the unlock cookie of one link does not open another; a forged or expired one opens nothing', async () => {
    const a = await addLink(server, file.id, { password: 'same words' })
    const b = await addLink(server, file.id, { password: 'same words' })
    const cookie = cookiesOf(await unlockWith(a, 'same words'))
    expect((await visit(`${a.path}/file`, { cookie })).status).toBe(200)
    expect((await visit(`${b.path}/file`, { cookie })).status).toBe(401)
    expect(await (await visit(b.path, { cookie })).text()).toContain('<title>Password required</title>')
    const [, value] = cookie.split('=')
    const [expiry, mac] = value!.split('.')
    const forged = [
      `pdfshare_unlock=${Number(expiry) + 1}.${mac}`,
      `pdfshare_unlock=${expiry}.${mac!.slice(0, -2)}AA`,
      'pdfshare_unlock=1.x',
    ]
    for (const bad of forged) expect((await visit(`${a.path}/file`, { cookie: bad })).status).toBe(401)
    // 12 hours later the cookie has run out, even if the browser still sends it.
    const later = createApp({ ...server.ctx, now: () => Date.now() + 12 * 60 * 60 * 1000 + 1000 })
    const response = await later.handle(new Request(`${BASE}${a.path}/file`, { headers: { cookie, 'user-agent': FIREFOX } }))
    expect(response.status).toBe(401)
  })

  test('changing or clearing the password ends every unlock', async () => {
    const link = await addLink(server, file.id, { password: 'first words' })
    const cookie = cookiesOf(await unlockWith(link, 'first words'))
    expect((await visit(`${link.path}/file`, { cookie })).status).toBe(200)
    await changeLink(server, link.id, { password: 'second words' })
    expect((await visit(`${link.path}/file`, { cookie })).status).toBe(401)
    expect(await (await visit(link.path, { cookie })).text()).toContain('<title>Password required</title>')
    expect((await unlockWith(link, 'first words')).status).toBe(401)
    const second = cookiesOf(await unlockWith(link, 'second words'))
    expect((await visit(`${link.path}/file`, { cookie: second })).status).toBe(200)
    // Cleared: the link is open to everyone, the preview is the document's again.
    await changeLink(server, link.id, { password: null })
    expect((await visit(`${link.path}/file`)).status).toBe(200)
    const preview = await visit(`${link.path}/preview.png`)
    expect(Buffer.from(await preview.arrayBuffer()).equals(PLACEHOLDER)).toBe(false)
  })

  test('10 wrong passwords per link and address in 15 minutes, then 429 with Retry-After, even for the right one', async () => {
    let now = Date.UTC(2026, 10, 24, 9, 0, 0)
    const app = createApp({ ...server.ctx, now: () => now })
    const post = (link: TestLink, password: string, ip: string) =>
      app.handle(
        new Request(`${BASE}${link.path}`, {
          method: 'POST',
          body: new URLSearchParams({ password }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, 'user-agent': FIREFOX },
        }),
      )
    const link = await addLink(server, file.id, { password: 'open sesame' })
    const other = await addLink(server, file.id, { password: 'open sesame' })
    // A right password is no failure: it never uses up the budget.
    for (let i = 0; i < 3; i++) expect((await post(link, 'open sesame', '192.0.2.1')).status).toBe(303)
    for (let i = 0; i < 10; i++) expect((await post(link, `guess ${i}`, '192.0.2.1')).status).toBe(401)
    for (const password of ['guess 10', 'open sesame']) {
      const refused = await post(link, password, '192.0.2.1')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused.headers.get('set-cookie')).toBeNull()
      expect(await refused.text()).toContain('Too many wrong passwords')
    }
    // Another address, and another link from the same address, are not affected.
    expect((await post(link, 'open sesame', '192.0.2.2')).status).toBe(303)
    expect((await post(other, 'open sesame', '192.0.2.1')).status).toBe(303)
    // After the window the address may try again.
    now += 15 * 60 * 1000
    expect((await post(link, 'open sesame', '192.0.2.1')).status).toBe(303)
  })

  test('a link preview fetcher gets the password page, never the title, description or image', async () => {
    const link = await addLink(server, file.id, { password: 'open sesame' })
    const fetchers = [
      SLACKBOT,
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'Twitterbot/1.0',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
      'WhatsApp/2.23.20.0',
      'TelegramBot (like TwitterBot)',
    ]
    for (const userAgent of fetchers) {
      const page = await visit(link.path, { 'user-agent': userAgent })
      expect(page.status).toBe(200)
      expect(await expectNothingOfTheDocument(page)).toContain('<title>Password required</title>')
      const preview = await visit(`${link.path}/preview.png`, { 'user-agent': userAgent })
      expect(Buffer.from(await preview.arrayBuffer()).equals(PLACEHOLDER)).toBe(true)
      expect((await visit(`${link.path}/file`, { 'user-agent': userAgent })).status).toBe(401)
    }
    // On a used-up link they get the 410, not a view.
    const over = await addLink(server, file.id, { maxViews: 1, views: 1 })
    for (const userAgent of fetchers) {
      for (const route of ROUTES) {
        const response = await visit(over.path + route, { 'user-agent': userAgent })
        expect(response.status).toBe(410)
        await expectNothingOfTheDocument(response)
      }
    }
  })
})

describe('expiry while reading', () => {
  test('a reader who opened the page before the expiry gets 410 from /file and the page after it', async () => {
    let now = Date.UTC(2026, 10, 24, 12, 0, 0)
    const app = createApp({ ...server.ctx, now: () => now })
    const get = (path: string) => app.handle(new Request(`${BASE}${path}`, { headers: { 'user-agent': SAFARI_PHONE } }))
    const link = await addLink(server, file.id, { expiresAt: now + 60_000 })
    expect((await get(link.path)).status).toBe(200)
    expect((await get(`${link.path}/file`)).status).toBe(200)
    now += 60_000
    for (const route of ROUTES) expect((await get(link.path + route)).status).toBe(410)
  })
})

describe('view limits', () => {
  test('bots, prefetches, HEAD and repeats never use a view; the view reaching the limit is served; the next new reader gets 410', async () => {
    const link = await addLink(server, file.id, { maxViews: 2 })
    const before = await fileViews()
    const uncounted: Record<string, string>[] = [
      { 'user-agent': SLACKBOT },
      { 'sec-purpose': 'prefetch' },
      { 'user-agent': 'curl/8.5.0' },
      { 'user-agent': '' },
    ]
    for (const headers of uncounted) {
      expect((await visit(link.path, headers)).status).toBe(200)
    }
    expect((await visit(link.path, {}, 'HEAD')).status).toBe(200)
    // Reader A, then A again: with its cookies, and without them from the same address and browser.
    const a = { 'x-forwarded-for': '203.0.113.10', 'user-agent': browserNumber('a') }
    const first = await visit(link.path, a)
    expect(first.status).toBe(200)
    expect(cookieNamed(first, 'pdfshare_seen')).toBeDefined()
    expect(cookieNamed(first, 'pdfshare_grant')).toContain(`Path=/base${link.path}`)
    expect((await visit(link.path, { ...a, cookie: cookiesOf(first) })).status).toBe(200)
    expect((await visit(link.path, a)).status).toBe(200)
    expect(await linkViews(server, link.id)).toBe(1)
    // Reader B takes the last view and is served.
    const b = await visit(link.path, { 'x-forwarded-for': '203.0.113.11', 'user-agent': browserNumber('b') })
    expect(b.status).toBe(200)
    expect(await b.text()).toContain(`<title>${TITLE}</title>`)
    expect(await linkViews(server, link.id)).toBe(2)
    expect(await fileViews()).toBe(before + 2)
    // Reader C is new: the link is used up. So are bots now.
    const c = await visit(link.path, { 'x-forwarded-for': '203.0.113.12', 'user-agent': browserNumber('c') })
    expect(c.status).toBe(410)
    await expectNothingOfTheDocument(c)
    expect((await visit(link.path, { 'user-agent': SLACKBOT })).status).toBe(410)
    expect((await visit(`${link.path}/file`)).status).toBe(410)
    // Those who were served keep reading with their grant: the page, the bytes (ranges too), the download.
    for (const cookie of [cookiesOf(first), cookiesOf(b)]) {
      expect((await visit(link.path, { cookie })).status).toBe(200)
      expect((await visit(`${link.path}/file`, { cookie, range: 'bytes=0-9' })).status).toBe(206)
      expect((await visit(`${link.path}/download`, { cookie })).status).toBe(200)
    }
    expect(await linkViews(server, link.id)).toBe(2)
    // A grant is signed for its link: it opens no other used-up link.
    const otherOver = await addLink(server, file.id, { maxViews: 1, views: 1 })
    expect((await visit(`${otherOver.path}/file`, { cookie: cookiesOf(b) })).status).toBe(410)
  })

  test('while a limited link is open, its bytes need the grant that its page gives', async () => {
    const link = await addLink(server, file.id, { maxViews: 100 })
    const direct = await visit(`${link.path}/file`)
    expect(direct.status).toBe(403)
    await expectNothingOfTheDocument(direct)
    expect((await visit(`${link.path}/download`)).status).toBe(403)
    // A reader whose view was counted gets the grant with the page, and with it the bytes.
    const page = await visit(link.path)
    const granted = await visit(`${link.path}/file`, { cookie: cookiesOf(page) })
    expect(granted.status).toBe(200)
    expect(granted.headers.get('cache-control')).toBe('no-store')
    expect(await linkViews(server, link.id)).toBe(1)
  })

  test('a request that is not counted gets the page without a grant, and the bytes stay closed, before and after the limit', async () => {
    // Over the per-address bound: one address's readers take all but the last view first.
    const crowded = '203.0.113.77'
    const bound = server.config.maxViewsPerAddress
    const link = await addLink(server, file.id, { maxViews: bound + 1 })
    for (let i = 0; i < bound; i++) await visit(link.path, { 'x-forwarded-for': crowded, 'user-agent': browserNumber(`crowd-${i}`) })
    const uncounted: [string, Record<string, string>, string?][] = [
      ['a link unfurler', { 'user-agent': SLACKBOT }],
      ['curl', { 'user-agent': 'curl/8.5.0' }],
      ['no User-Agent', { 'user-agent': '' }],
      ['HEAD', {}, 'HEAD'],
      ['a prefetch', { 'sec-purpose': 'prefetch' }],
      ['a prerender', { 'sec-purpose': 'prefetch;prerender' }],
      ['another site’s <img>', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }],
      ['another site’s <iframe>', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }],
      ['another site’s fetch()', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }],
      ['a visit over the per-address bound', { 'x-forwarded-for': crowded, 'user-agent': browserNumber('crowd-extra') }],
    ]
    const pages: Response[] = []
    for (const [what, headers, method] of uncounted) {
      const page = await visit(link.path, headers, method)
      expect(page.status, what).toBe(200)
      expect(cookieNamed(page, 'pdfshare_grant'), what).toBeUndefined()
      if (method !== 'HEAD') expect(await page.clone().text(), what).toContain('data-ungranted="1"')
      for (const route of ['/file', '/download']) {
        expect((await visit(`${link.path}${route}`, { ...headers, cookie: cookiesOf(page) })).status, `${what}: ${route}`).toBe(403)
      }
      pages.push(page)
    }
    expect(await linkViews(server, link.id)).toBe(bound)
    // The last view is used by a reader; the uncounted requests' cookies still open nothing.
    const reader = await visit(link.path, { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })
    expect(await reader.text()).not.toContain('data-ungranted')
    expect(cookieNamed(reader, 'pdfshare_grant')).toBeDefined()
    expect(await linkViews(server, link.id)).toBe(bound + 1)
    for (const page of pages) {
      expect((await visit(`${link.path}/file`, { cookie: cookiesOf(page) })).status).toBe(410)
      expect((await visit(link.path, { 'user-agent': SLACKBOT, cookie: cookiesOf(page) })).status).toBe(410)
    }
    expect((await visit(`${link.path}/file`, { cookie: cookiesOf(reader) })).status).toBe(200)
  })

  test('a hand-made seen cookie is no repeat: the visit is counted (and uses a view) or refused, never a free grant', async () => {
    const link = await addLink(server, file.id, { maxViews: 1 })
    const first = await visit(link.path, { cookie: 'pdfshare_seen=1' })
    expect(first.status).toBe(200)
    expect(await linkViews(server, link.id)).toBe(1)
    expect((await visit(link.path, { cookie: 'pdfshare_seen=1' })).status).toBe(410)
    // The counted reader's own seen cookie is a true repeat: the page again, with a grant, without another view.
    const seen = cookieNamed(first, 'pdfshare_seen')!.split(';')[0]!
    const again = await visit(link.path, { cookie: seen })
    expect(again.status).toBe(410) // used up, and a seen cookie is no grant
    const repeat = await addLink(server, file.id, { maxViews: 2 })
    const counted = await visit(repeat.path)
    const repeatSeen = cookieNamed(counted, 'pdfshare_seen')!.split(';')[0]!
    const back = await visit(repeat.path, { cookie: repeatSeen })
    expect(back.status).toBe(200)
    expect(cookieNamed(back, 'pdfshare_grant')).toBeDefined()
    expect(await linkViews(server, repeat.id)).toBe(1)
  })

  test('one view left and 20 concurrent new readers: exactly one is served', async () => {
    const link = await addLink(server, file.id, { maxViews: 5, views: 4 })
    const before = await fileViews()
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        visit(link.path, { 'user-agent': browserNumber(`race-${i}`), 'x-forwarded-for': `100.64.7.${i}` }),
      ),
    )
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 410)).toHaveLength(19)
    const refused = responses.filter((response) => response.status === 410)
    for (const response of refused) expect(response.headers.get('set-cookie')).toBeNull()
    expect(await linkViews(server, link.id)).toBe(5)
    expect(await fileViews()).toBe(before + 1)
    // The refused readers were not marked as seen: once the owner raises the limit, each new one counts.
    await changeLink(server, link.id, { maxViews: 7 })
    const refusedReaders = statuses.flatMap((status, i) => (status === 410 ? [i] : [])).slice(0, 3)
    const again = await Promise.all(
      refusedReaders.map((i) => visit(link.path, { 'user-agent': browserNumber(`race-${i}`), 'x-forwarded-for': `100.64.7.${i}` })),
    )
    expect(again.map((response) => response.status).sort()).toEqual([200, 200, 410])
    expect(await linkViews(server, link.id)).toBe(7)
  })

  test('unlimited links count as before: each link its own views, the file the total', async () => {
    const one = await addLink(server, file.id)
    const two = await addLink(server, file.id)
    const before = await fileViews()
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => visit(one.path, { 'user-agent': browserNumber(`one-${i}`) })),
      ...Array.from({ length: 4 }, (_, i) => visit(two.path, { 'user-agent': browserNumber(`two-${i}`) })),
    ])
    expect([await linkViews(server, one.id), await linkViews(server, two.id)]).toEqual([6, 4])
    expect(await fileViews()).toBe(before + 10)
    // An unlimited link's bytes need no grant.
    expect((await visit(`${one.path}/file`)).status).toBe(200)
  })
})
