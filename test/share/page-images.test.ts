import { describe, expect, test } from 'bun:test'
import { existsSync, statSync } from 'node:fs'
import sharp from 'sharp'
import { createApp } from '../../src/app'
import { PAGE_WIDTHS } from '../../src/core/previews/render-page'
import { inkPerLine, unembeddedFontsPdf } from '../../scripts/support/font-pdfs'
import { contentStreamBomb } from '../../scripts/support/hostile-pdfs'
import { makePdf } from '../../scripts/support/pdf'
import { BASE, startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { STARVED_MS } from '../support/preview-cards'
import { untilDrawn } from '../support/busy'
import { FIREFOX } from '../support/user-agents'

// Pages drawn on the server (docs/share-page.md): `GET /s/:slug/pages/:n?w=` answers page n as a WebP of one of
// the ladder's widths, drawn by the preview renderers and cached; it opens only where the PDF's bytes would.
const METRICS_TOKEN = 'page-images-metrics-0123456789ab'
const PAGE_DRAWS_PER_MINUTE = 12
const server = await startTestApp({
  PDFSHARE_TRUST_PROXY: '1',
  PDFSHARE_RATE_LIMIT_SHARE: '0',
  // The hostile PDF's page runs into this limit; the others must stay well inside it on a machine busy with other
  // tests (at 3 s the page of fonts drawn from fallbacks sometimes did not).
  PDFSHARE_PREVIEW_TIMEOUT: '8',
  PDFSHARE_METRICS_TOKEN: METRICS_TOKEN,
  // The budget of page draws per address, small so that using it up is a dozen renders, not 120.
  PDFSHARE_RATE_LIMIT_PAGE_DRAWS: String(PAGE_DRAWS_PER_MINUTE),
})
const owner = await server.user('pages-owner')
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 3, text: (p) => `Page number ${p}` }), name: 'three.pdf' })
const blobKeyOf = async (id: string) =>
  (await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, id) }))!.blobKey

/** Page images this process's renderers were asked for, whatever came of it, as GET /metrics counts them. */
async function pageRenders(): Promise<number> {
  const text = await (await server.callInProcess('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  return [...text.matchAll(/^pdfshare_renders_total\{kind="page",outcome="[a-z_]+"\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0)
}

let addresses = 0
/** A reader's GET; asked again while the renderers are all busy (503), as the viewer does after its Retry-After. */
const get = (path: string, headers: Record<string, string> = {}) =>
  untilDrawn(() =>
    server.call('GET', path, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': `198.18.7.${++addresses % 250}`, ...headers } }),
  )

describe('a page as an image', () => {
  test('page 2 at 800 px: a WebP that wide, with a strong ETag (304 when unchanged), private to caches, drawn once', async () => {
    const link = await addLink(server, file.id)
    const first = await get(`${link.path}/pages/2?w=800`)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/webp')
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"pg-[0-9a-f]{24}-2-800"$/)
    const meta = await sharp(Buffer.from(await first.arrayBuffer())).metadata()
    expect([meta.format, meta.width]).toEqual(['webp', 800])
    expect(meta.height).toBeGreaterThan(800) // a portrait page
    expect((await get(`${link.path}/pages/2?w=800`, { 'if-none-match': etag })).status).toBe(304)
    if (!server.instances) {
      // Drawn into this server's cache (through the balancer, into the instance's), and served from it after.
      const cached = server.ctx.previews.pagePathOf(await blobKeyOf(file.id), 2, 800, 'webp')
      expect(existsSync(cached)).toBe(true)
      const drawnAt = statSync(cached).mtimeMs
      expect((await get(`${link.path}/pages/2?w=800`)).status).toBe(200)
      expect(statSync(cached).mtimeMs).toBe(drawnAt)
    }
    // Another width is another image; page 1 and page 3 differ from page 2.
    const wide = await get(`${link.path}/pages/2?w=1200`)
    expect((await sharp(Buffer.from(await wide.arrayBuffer())).metadata()).width).toBe(1200)
    const one = Buffer.from(await (await get(`${link.path}/pages/1?w=480`)).arrayBuffer())
    const three = Buffer.from(await (await get(`${link.path}/pages/3?w=480`)).arrayBuffer())
    expect(one.equals(three)).toBe(false)
  })

  test('bad requests are told what is wrong: a page past the end, page 0, a width off the ladder', async () => {
    const link = await addLink(server, file.id)
    const past = await get(`${link.path}/pages/4?w=800`)
    expect([past.status, await past.text()]).toEqual([404, 'This document has 3 pages.'])
    for (const path of ['/pages/0?w=800', '/pages/-1', '/pages/two', '/pages/1?w=801', '/pages/1?w=99999']) {
      const refused = await get(`${link.path}${path}`)
      expect(`${path} ${refused.status}`).toBe(`${path} 400`)
    }
    expect(await (await get(`${link.path}/pages/1?w=801`)).text()).toBe(`The width (?w=) must be one of ${PAGE_WIDTHS.join(', ')}.`)
  })

  test('closed exactly where the PDF is: gone, a password, an address to give, a view limit without a grant', async () => {
    expect((await get(`${(await addLink(server, file.id, { disabled: true })).path}/pages/1`)).status).toBe(410)
    expect((await get(`${(await addLink(server, file.id, { password: 'open sesame' })).path}/pages/1`)).status).toBe(401)
    expect((await get(`${(await addLink(server, file.id, { access: 'email' })).path}/pages/1`)).status).toBe(403)
    expect((await get(`${(await addLink(server, file.id, { agreement: 'Terms.' })).path}/pages/1`)).status).toBe(403)
    const limited = await addLink(server, file.id, { maxViews: 5 })
    expect((await get(`${limited.path}/pages/1`)).status).toBe(403)
    // Its page counted, the reader holds the grant: the pages open, and no shared cache may keep them.
    const opened = await get(limited.path)
    const cookie = opened.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const page = await get(`${limited.path}/pages/1?w=480`, { cookie })
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect((await get('/s/nosuchslugnosuchslug00/pages/1')).status).toBe(404)
  })

  test(
    `a reader gets at most ${PAGE_DRAWS_PER_MINUTE} pages drawn in any minute from one address, also around the clock's minute; cached pages stay free`,
    async () => {
      // The budget used up late in a minute of the clock: a fixed window would give it all again 10 s later.
      let now = Date.UTC(2026, 10, 25, 12, 0, 50)
      const app = createApp({ ...server.ctx, now: () => now })
      const big = await uploadPdf(server, owner, { bytes: makePdf({ pages: PAGE_DRAWS_PER_MINUTE + 2 }), name: 'long.pdf' })
      const link = await addLink(server, big.id)
      const page = (n: number) =>
        app.handle(
          new Request(`${BASE}${link.path}/pages/${n}?w=480`, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': '203.0.113.50' } }),
        )
      for (let n = 1; n <= PAGE_DRAWS_PER_MINUTE; n++) expect((await page(n)).status).toBe(200)
      const over = await page(PAGE_DRAWS_PER_MINUTE + 1)
      expect(over.status).toBe(429)
      expect(over.headers.get('content-type')).toBe('image/png')
      expect((await page(1)).status).toBe(200) // drawn before: no draw, no budget
      now += 20_000 // 12:01:10, a new minute of the clock, 20 s after the draws
      expect((await page(PAGE_DRAWS_PER_MINUTE + 1)).status).toBe(429)
      now += 50_000 // 70 s after them: the minute is counted in 10-second steps, so they are out of it by now
      expect((await page(PAGE_DRAWS_PER_MINUTE + 1)).status).toBe(200)
    },
    STARVED_MS,
  )

  test('text in fonts the PDF does not embed is drawn: the standard 14, Cyrillic, Greek, Chinese, Japanese, Korean', async () => {
    const { bytes, lines } = unembeddedFontsPdf()
    const link = await addLink(server, (await uploadPdf(server, owner, { bytes, name: 'fonts.pdf' })).id)
    const page = await get(`${link.path}/pages/1?w=800`)
    expect(page.status).toBe(200)
    // Without font data PDFium drew only Helvetica, Times and the ASCII punctuation (at most 263 dark pixels a
    // line); a line of 24 pt text at 800 px has well over 1,500.
    const ink = await inkPerLine(Buffer.from(await page.arrayBuffer()), lines)
    for (const line of lines) expect(`${line.label}: ${ink[line.label]! > 800}`).toBe(`${line.label}: true`)
    // The link card shows the same text: the band where the first lines are is not white.
    const card = await sharp(Buffer.from(await (await get(`${link.path}/preview.png`)).arrayBuffer()))
      .greyscale()
      .raw()
      .toBuffer()
    expect(card.filter((grey) => grey < 128).length).toBeGreaterThan(5_000)
  })

  test('a hostile PDF: the page is a 422 in bounded time, remembered, and the server keeps answering', async () => {
    const bomb = await uploadPdf(server, owner, { bytes: contentStreamBomb(), name: 'bomb.pdf' })
    const link = await addLink(server, bomb.id)
    // Bounded by the renderer’s limits (8 s of CPU time, the memory cap), however long that takes on this machine.
    // Asked of this process's app both times: what it remembers is its own (through the balancer each instance's).
    const answer = await server.callInProcess('GET', `${link.path}/pages/1?w=800`, { headers: { 'user-agent': FIREFOX } })
    expect([422, 200]).toContain(answer.status) // PDFium may draw it within the caps; it never hangs
    if (answer.status === 422) {
      expect(await answer.text()).toBe('Page 1 of this document cannot be drawn.')
      const rendersBefore = await pageRenders()
      expect((await server.callInProcess('GET', `${link.path}/pages/1?w=800`, { headers: { 'user-agent': FIREFOX } })).status).toBe(422)
      // Remembered, not drawn again: the second answer asked no renderer for anything.
      expect(await pageRenders()).toBe(rendersBefore)
    }
    expect((await server.call('GET', '/api/health')).status).toBe(200)
  }, 180_000)
})

describe("a page's text", () => {
  test('page 2: its words in reading order, each boxed as fractions of the page, as JSON with a strong ETag', async () => {
    const link = await addLink(server, file.id)
    const answer = await get(`${link.path}/pages/2/text`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(answer.headers.get('cache-control')).toBe('private, no-cache')
    const etag = answer.headers.get('etag')!
    expect(etag).toMatch(/^"pt2-[0-9a-f]{24}-2"$/)
    const text = (await answer.json()) as { width: number; height: number; words: [number, number, number, number, string, number][] }
    expect([text.width, text.height]).toEqual([612, 792])
    expect(text.words.map((word) => word[4])).toEqual(['Page', 'number', '2'])
    expect(text.words.map((word) => word[5])).toEqual([0, 0, 1]) // one line, ended after its last word
    const [left, top, width, height] = text.words[0]!
    // "Page" is drawn at 72 pt from the left, its baseline 72 pt below the top, in 24 pt Helvetica.
    expect(left).toBeCloseTo(72 / 612, 2)
    expect(top + height).toBeCloseTo(72 / 792, 1)
    expect(width).toBeGreaterThan(0.05)
    expect(height).toBeGreaterThan(0.015)
    for (const [x, y, w, h] of text.words) for (const value of [x, y, x + w, y + h]) expect(value).toBeWithin(0, 1)
    // Each word starts right of the one before it on the line.
    expect(text.words[1]![0]).toBeGreaterThan(left + width)
    expect((await get(`${link.path}/pages/2/text`, { 'if-none-match': etag })).status).toBe(304)
  })

  test('closed where the PDF is, and told what is wrong with a page number', async () => {
    expect((await get(`${(await addLink(server, file.id, { password: 'open sesame' })).path}/pages/1/text`)).status).toBe(401)
    expect((await get(`${(await addLink(server, file.id, { access: 'email' })).path}/pages/1/text`)).status).toBe(403)
    expect((await get(`${(await addLink(server, file.id, { disabled: true })).path}/pages/1/text`)).status).toBe(410)
    const link = await addLink(server, file.id)
    const past = await get(`${link.path}/pages/9/text`)
    expect([past.status, await past.text()]).toEqual([404, 'This document has 3 pages.'])
    expect((await get(`${link.path}/pages/0/text`)).status).toBe(400)
  })
})
