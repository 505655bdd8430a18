import { describe, expect, test } from 'bun:test'
import { MAIL_LINK, WEB_LINK } from '../../scripts/support/links-pdf'
import { makePdf } from '../../scripts/support/pdf'
import { startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { untilDrawn } from '../support/busy'
import { FIREFOX } from '../support/user-agents'

// A PDF's links and outline on pages drawn on the server (issue 38, docs/share-page.md): read by PDFium in the
// renderers, sent with a page's text and at `/outline`; only web and mail addresses and the document's own pages.
const server = await startTestApp({ PDFSHARE_RATE_LIMIT_SHARE: '0' })
const owner = await server.user('drawn-links-owner')
const fixture = new Uint8Array(await Bun.file(new URL('../fixtures/links-outline.pdf', import.meta.url)).arrayBuffer())
const file = await uploadPdf(server, owner, { bytes: fixture, name: 'links-outline.pdf' })
const plain = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'plain.pdf' })
const viewOnly = await addLink(server, file.id, { allowDownload: false })

const get = (path: string, headers: Record<string, string> = {}) =>
  untilDrawn(() => server.call('GET', path, { headers: { 'user-agent': FIREFOX, ...headers } }))

type Link = [number, number, number, number, string | number]

describe("a drawn page's links", () => {
  test('page 1 of a view-only link: its web link, its jump to page 5 and its mail link, boxed over their words; no script, file or data link', async () => {
    const answer = await get(`${viewOnly.path}/pages/1/text`)
    expect(answer.status).toBe(200)
    const { links } = (await answer.json()) as { links: Link[] }
    expect(links.map((link) => link[4])).toEqual([WEB_LINK, 5, MAIL_LINK])
    // Drawn 72 pt from the left, the web link's box 152 pt below the top (792 − 640), 20 pt high.
    const [left, top, width, height] = links[0]!
    expect(left).toBeCloseTo(72 / 612, 3)
    expect(top).toBeCloseTo((792 - 656) / 792, 3)
    expect(width).toBeCloseTo(228 / 612, 3)
    expect(height).toBeCloseTo(20 / 792, 3)
    // The `javascript:` URI, the JavaScript action, the `file:` and `data:` addresses are not sent at all, in any form.
    expect(JSON.stringify(links)).not.toMatch(/javascript|alert|file:|passwd|data:/i)
  })

  test('a page without links has none', async () => {
    const answer = await get(`${viewOnly.path}/pages/2/text`)
    expect(((await answer.json()) as { links: Link[] }).links).toEqual([])
  })
})

describe("a drawn document's outline", () => {
  test('GET /s/:slug/outline: its entries to pages, nested, as JSON with a strong ETag; the entry to a web address left out', async () => {
    const answer = await get(`${viewOnly.path}/outline`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(answer.headers.get('cache-control')).toBe('private, no-cache')
    expect(await answer.json()).toEqual([
      { title: 'Introduction', page: 1 },
      { title: 'Chapter five', page: 5, items: [{ title: 'Section 5.1', page: 5 }] },
    ])
    const etag = answer.headers.get('etag')!
    expect(etag).toMatch(/^"po-[0-9a-f]{24}"$/)
    expect((await get(`${viewOnly.path}/outline`, { 'if-none-match': etag })).status).toBe(304)
  })

  test('a PDF without an outline: an empty list', async () => {
    const link = await addLink(server, plain.id, { allowDownload: false })
    expect(await (await get(`${link.path}/outline`)).json()).toEqual([])
  })

  test('closed where the PDF is: a password, a reader gate, a closed link', async () => {
    expect((await get(`${(await addLink(server, file.id, { password: 'open sesame' })).path}/outline`)).status).toBe(401)
    expect((await get(`${(await addLink(server, file.id, { access: 'email' })).path}/outline`)).status).toBe(403)
    expect((await get(`${(await addLink(server, file.id, { disabled: true })).path}/outline`)).status).toBe(410)
    expect((await get('/s/doesnotexist0/outline')).status).toBe(404)
  })
})
