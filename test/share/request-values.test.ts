import { describe, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { BASE, startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// What a share route reads of its request is read once (src/routes/share/index.ts: the plugin's derive and the
// link's resolve), and its params have schemas that answer a malformed slug or page number as before: the 404
// page, the page number's 400, behind the link's own answer when it is closed.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '1000' })
const owner = await server.user('values-owner')
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'values.pdf' })
const open = await addLink(server, file.id)
// Every check that reads a cookie: a grant (view limit), a reader's address, an agreement.
const gated = await addLink(server, file.id, { maxViews: 5, access: 'email', allow: ['@example.com'], agreement: 'Terms.' })
const locked = await addLink(server, file.id, { password: 'open sesame' })

const FORM = 'application/x-www-form-urlencoded'
/** Every route of the plugin, as a reader's browser calls it. */
const ROUTES: { method: 'GET' | 'POST'; path: (slug: string) => string; type?: string; body?: string }[] = [
  { method: 'GET', path: (slug) => `/s/${slug}` },
  { method: 'POST', path: (slug) => `/s/${slug}`, type: FORM, body: 'password=guess' },
  { method: 'POST', path: (slug) => `/s/${slug}/reader`, type: FORM, body: 'email=someone%40example.com' },
  { method: 'POST', path: (slug) => `/s/${slug}/code`, type: FORM, body: 'email=someone%40example.com&code=123456' },
  { method: 'POST', path: (slug) => `/s/${slug}/agreement`, type: FORM, body: 'version=1&accept=yes' },
  { method: 'GET', path: (slug) => `/s/${slug}/file` },
  { method: 'GET', path: (slug) => `/s/${slug}/download` },
  { method: 'POST', path: (slug) => `/s/${slug}/reading`, type: 'text/plain', body: '{"visit":"x","pages":[{"page":1,"ms":10}]}' },
  { method: 'GET', path: (slug) => `/s/${slug}/pages/1` },
  { method: 'GET', path: (slug) => `/s/${slug}/pages/1/text` },
  { method: 'GET', path: (slug) => `/s/${slug}/preview.png` },
  { method: 'GET', path: (slug) => `/s/${slug}/outline` },
  // A room link's document's routes (docs/rooms.md): a file link's slug has none, so these are its 404s.
  { method: 'GET', path: (slug) => `/s/${slug}/docs/${file.id}` },
  { method: 'GET', path: (slug) => `/s/${slug}/docs/${file.id}/file` },
  { method: 'GET', path: (slug) => `/s/${slug}/docs/${file.id}/download` },
  {
    method: 'POST',
    path: (slug) => `/s/${slug}/docs/${file.id}/reading`,
    type: 'text/plain',
    body: '{"visit":"x","pages":[{"page":1,"ms":10}]}',
  },
  { method: 'GET', path: (slug) => `/s/${slug}/docs/${file.id}/pages/1` },
  { method: 'GET', path: (slug) => `/s/${slug}/docs/${file.id}/pages/1/text` },
  { method: 'GET', path: (slug) => `/s/${slug}/docs/${file.id}/preview.png` },
  { method: 'GET', path: (slug) => `/s/${slug}/docs/${file.id}/outline` },
  { method: 'GET', path: (slug) => `/s/${slug}/nothing/here` },
]

type Reads = { cookie: number; forwardedFor: number; cookieParsed: number }

/**
 * A request whose headers count what reads them: the Cookie and X-Forwarded-For headers, and each time the Cookie
 * header's text is taken apart (split), which is what parsing it means.
 */
function countedRequest(route: (typeof ROUTES)[number], slug: string, reads: Reads): Request {
  const headers: Record<string, string> = {
    'user-agent': FIREFOX,
    'x-forwarded-for': '203.0.113.77',
    cookie: 'theme=dark; pdfshare_grant=forged; pdfshare_reader=forged; pdfshare_agreed=forged; pdfshare_seen=forged',
  }
  if (route.type) headers['content-type'] = route.type
  const request = new Request(`${BASE}${route.path(slug)}`, { method: route.method, headers, body: route.body ?? null })
  const get = request.headers.get.bind(request.headers)
  request.headers.get = (name: string) => {
    const value = get(name)
    if (name.toLowerCase() === 'x-forwarded-for') reads.forwardedFor++
    if (name.toLowerCase() !== 'cookie' || value === null) return value
    reads.cookie++
    const counted = new String(value)
    counted.split = ((...args: Parameters<string['split']>) => {
      reads.cookieParsed++
      return value.split(...args)
    }) as string['split']
    return counted as string
  }
  return request
}

describe('per-request values of the share routes', () => {
  test('each route reads the Cookie header, parses it and reads the client address at most once a request', async () => {
    const seen: string[] = []
    for (const route of ROUTES)
      for (const link of [gated, open, locked]) {
        const reads: Reads = { cookie: 0, forwardedFor: 0, cookieParsed: 0 }
        const response = await server.app.handle(countedRequest(route, link.slug, reads))
        expect(response.status).toBeLessThan(500)
        await response.arrayBuffer()
        seen.push(`${route.method} ${route.path(':slug')} ${reads.cookie}/${reads.cookieParsed}/${reads.forwardedFor}`)
      }
    expect(seen.filter((line) => !/ [01]\/[01]\/[01]$/.test(line))).toEqual([])
    // The client address is read on every route (the per-address limit counts every request).
    expect(seen.filter((line) => !line.endsWith('/1'))).toEqual([])
  })

  test('every route of a link declares its params schema', () => {
    const routes = server.app.routes.filter((route) => route.path.startsWith('/s/:slug'))
    expect(routes.length).toBe(ROUTES.length - 1)
    const without = routes.filter((route) => !(route.hooks as { params?: unknown }).params).map((route) => `${route.method} ${route.path}`)
    expect(without).toEqual([])
  })
})

describe('a malformed slug or page number is answered as before', () => {
  const notFoundPage = async (response: Response) => [
    response.status,
    response.headers.get('content-type'),
    (await response.text()).includes('<title>Not found</title>'),
  ]
  const call = (route: (typeof ROUTES)[number], slug: string) =>
    server.call(route.method, route.path(slug), {
      headers: { 'user-agent': FIREFOX, ...(route.type ? { 'content-type': route.type } : {}) },
      body: route.body ?? null,
    })

  test('a slug that cannot be one (too short, too long, a path, undecodable) is the 404 page on every route', async () => {
    for (const slug of ['AAAA', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '..%2F..', '%ZZ', `${open.slug}%00`])
      for (const route of ROUTES.filter((route) => !route.path('x').endsWith('/reading'))) {
        expect(`${route.method} ${route.path(slug)} ${await notFoundPage(await call(route, slug))}`).toBe(
          `${route.method} ${route.path(slug)} 404,text/html; charset=utf-8,true`,
        )
      }
    // The viewer's beacon is answered in plain text.
    const beacon = await call(ROUTES.find((route) => route.path('x').endsWith('/reading'))!, '%ZZ')
    expect([beacon.status, await beacon.text()]).toEqual([404, 'no such link'])
  })

  test("a page number that is not one is the page route's 400, after the link's own answer", async () => {
    for (const page of ['0', '01', '-1', 'two', '1.5', '1234567', '%ZZ', '1e3']) {
      for (const suffix of ['', '/text']) {
        const refused = await server.call('GET', `${open.path}/pages/${page}${suffix}`)
        expect([page, refused.status, await refused.text()]).toEqual([page, 400, 'The page number must be a whole number from 1.'])
        // A closed link says so first, as it does for a page that exists.
        expect([page, (await server.call('GET', `${locked.path}/pages/${page}${suffix}`)).status]).toEqual([page, 401])
        expect([page, (await server.call('GET', `/s/AAAAAAAAAAAAAAAAAAAAAA/pages/${page}${suffix}`)).status]).toEqual([page, 404])
      }
    }
    expect((await server.call('GET', `${open.path}/pages/2`)).status).toBe(200)
    expect((await server.call('GET', `${open.path}/pages/999999`)).status).toBe(404)
  })
})
