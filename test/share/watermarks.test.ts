import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { readPageText } from '../../src/core/previews/page-text'
import { loadRenderEngine, withPdfium } from '../../src/core/previews/render-first-page'
import { makePdf } from '../../scripts/support/pdf'
import { passwordProtected } from '../e2e/viewer-pdfs'
import { startTestApp } from '../support/harness'
import { addLink, type TestLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { untilDrawn } from '../support/busy'
import { FIREFOX } from '../support/user-agents'

// Watermarks per reader (docs/share-page.md, "Watermarks"): drawn into the pixels of every page image a reader
// gets, and stamped on every page of the PDF they download.
const METRICS_TOKEN = 'watermark-metrics-0123456789abcdef'
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_METRICS_TOKEN: METRICS_TOKEN })
const owner = await server.user('watermark-owner')
const file = await uploadPdf(server, owner, {
  bytes: makePdf({ pages: 2, text: (page) => `Quarterly figures ${page}` }),
  name: 'figures.pdf',
})

let addresses = 0
/** A reader's GET; asked again while the renderers are all busy (503: a page still being counted or drawn), as a reader would. */
const get = (path: string, headers: Record<string, string> = {}) =>
  untilDrawn(() =>
    server.call('GET', path, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': `198.18.12.${++addresses % 250}`, ...headers } }),
  )

/** A reader who opened the link's page: the cookies it set (their visit among them) and the visit's id. */
async function reader(link: TestLink): Promise<{ cookie: string; visit: string }> {
  const page = await get(link.path)
  expect(page.status).toBe(200)
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  const visit = /pdfshare_visit=([^.;]+)\./.exec(cookie)?.[1]
  if (!visit) throw new Error(`no visit cookie in ${cookie}`)
  return { cookie, visit }
}

/** Page `n` of the link as `who` gets it, decoded: its pixels, for comparing. */
async function pixels(link: TestLink, who: { cookie: string } | null, n = 1) {
  const response = await get(`${link.path}/pages/${n}?w=800`, who ? { cookie: who.cookie } : {})
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('image/webp')
  const bytes = Buffer.from(await response.arrayBuffer())
  return {
    etag: response.headers.get('etag')!,
    raw: await sharp(bytes).raw().toBuffer(),
    cacheControl: response.headers.get('cache-control'),
  }
}

/** How many renderer jobs of `kind` ended well, as GET /metrics counts them. */
async function renders(kind: string): Promise<number> {
  const text = await (await server.callInProcess('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  const sample = new RegExp(`^pdfshare_renders_total\\{kind="${kind}",outcome="ok"\\} (\\d+)$`, 'm').exec(text)
  return Number(sample?.[1] ?? 0)
}

const differing = (a: Buffer, b: Buffer) => {
  let count = 0
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++
  return count
}

/** The text PDFium reads on page `n` of a PDF (the words, joined by spaces). */
async function textOf(pdf: Uint8Array, n = 1): Promise<string> {
  const path = `${server.dataDir}/read-${Date.now()}-${Math.random()}.pdf`
  await Bun.write(path, pdf)
  const text = await withPdfium(await loadRenderEngine(), path, 256 * 1024 * 1024, async (document) =>
    readPageText(document.getPage(n - 1)),
  )
  return text.words.map((word) => word[4]).join(' ')
}

describe('watermarks per reader', () => {
  test('a link sets and clears its watermark; a placeholder that is not one, or a blank one, is refused with the reason', async () => {
    const link = await addLink(server, file.id)
    const patch = (body: unknown) =>
      server.call('PATCH', `/api/links/${link.id}`, {
        token: owner.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const set = await patch({ watermark: '  Confidential · {email} · {date}  ' })
    expect(set.status).toBe(200)
    expect((await set.json()).data.watermark).toBe('Confidential · {email} · {date}')
    for (const [watermark, message] of [
      ['For {mail}', 'watermark may name only {email}, {date}, {visit}, {label}; {mail} is not one of them'],
      ['   ', 'watermark must not be empty; null removes it'],
      ['x'.repeat(101), 'watermark must be at most 100 characters'],
      ['line one\nline two', 'watermark must not contain control characters'],
    ] as const) {
      const refused = await patch({ watermark })
      expect(`${watermark}: ${refused.status}`).toBe(`${watermark}: 400`)
      expect((await refused.json()).error).toContain(message)
    }
    const cleared = await patch({ watermark: null })
    expect((await cleared.json()).data.watermark).toBeNull()
  })

  test('two readers get page images that differ where the watermark is, each the same on a repeat; the page is server-drawn even with downloads on', async () => {
    const plain = await addLink(server, file.id)
    const link = await addLink(server, file.id, { watermark: 'Reader {visit} on {date}' })
    const html = await (await get(link.path)).text()
    expect(html).toContain('data-mode="images"')
    expect(html).not.toContain('data-pdfjs=')
    expect(html).toContain(`data-download="/base${link.path}/download"`)
    const [alice, bob] = [await reader(link), await reader(link)]
    expect(alice.visit).not.toBe(bob.visit)
    const unmarked = await pixels(plain, null)
    const [a, b, aAgain] = [await pixels(link, alice), await pixels(link, bob), await pixels(link, alice)]
    // In the pixels: each reader's page differs from the page without a watermark and from the other reader's.
    expect(a.raw.length).toBe(unmarked.raw.length)
    expect(differing(a.raw, unmarked.raw)).toBeGreaterThan(a.raw.length / 100)
    expect(differing(a.raw, b.raw)).toBeGreaterThan(0)
    // Translucent: the page stays a white page with a light watermark over it, not a darkened one.
    const mean = (raw: Buffer) => raw.reduce((sum, value) => sum + value, 0) / raw.length
    expect(mean(a.raw)).toBeLessThan(mean(unmarked.raw) - 1)
    expect(mean(a.raw)).toBeGreaterThan(mean(unmarked.raw) - 20)
    // The same reader's page again: the same image (through a balancer another instance may have drawn the page
    // beneath from a larger drawing, a pixel off here and there: the ETag still names the same page and text).
    if (!server.instances) expect(aAgain.raw.equals(a.raw)).toBe(true)
    expect(new Set([unmarked.etag, a.etag, b.etag]).size).toBe(3)
    expect(aAgain.etag).toBe(a.etag)
    expect(a.cacheControl).toBe('private, no-cache')
    // A reader's address never shows in a header: the ETag names a digest of the text.
    expect(a.etag).not.toContain(alice.visit)
    // Revalidated, the watermarked image is still the reader's own.
    const revalidated = await get(`${link.path}/pages/1?w=800`, { cookie: alice.cookie, 'if-none-match': a.etag })
    expect(revalidated.status).toBe(304)
  })

  test('the watermark is laid over a page by a renderer, never on the server’s event loop: every watermarked page is a renderer’s job', async () => {
    const link = await addLink(server, file.id, { watermark: 'Laid by a renderer {visit}' })
    const who = await reader(link)
    // This app's own renderers (through a balancer, `call` would reach other instances, with their own counts).
    const page = async (n: number) => {
      const response = await server.callInProcess('GET', `${link.path}/pages/${n}?w=800`, {
        headers: { 'user-agent': FIREFOX, 'x-forwarded-for': '198.18.13.1', cookie: who.cookie },
      })
      expect(response.status).toBe(200)
      return Buffer.from(await response.arrayBuffer())
    }
    const before = await renders('watermark')
    const first = await page(1)
    await page(2)
    // Again: the overlay is kept, the page beneath too; laying the one over the other is a renderer's job each time.
    expect((await page(1)).equals(first)).toBe(true)
    expect(await renders('watermark')).toBe(before + 3)
  })

  test('a page image replaced under its name by one a pixel taller (page 1 drawn ahead, after a reader drew it) is watermarked as it is now, every time', async () => {
    // Page 1 at 1200 px drawn for a reader is 1200 × 1552; drawn ahead (at 2400 px, scaled down) it is 1200 × 1553,
    // and draw-ahead may write it over the reader's drawing. Its size was once read by name, from sharp's cache of
    // the file as it was: the overlay never fitted the page the renderer read, and page 1 was a 503 on every try.
    const previews = join(server.dataDir, 'previews')
    const pagesOne = () => new Set(readdirSync(previews).filter((entry) => entry.endsWith('.p1-w1200.webp')))
    const before = pagesOne() // before the upload: opening its link may draw page 1 ahead
    const pdf = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1, text: () => 'Drawn twice' }), name: 'twice.pdf' })
    const link = await addLink(server, pdf.id, { watermark: 'Redrawn for {visit}' })
    const who = await reader(link)
    const pageOne = async () => {
      const response = await server.callInProcess('GET', `${link.path}/pages/1?w=1200`, {
        headers: { 'user-agent': FIREFOX, 'x-forwarded-for': '198.18.13.2', cookie: who.cookie },
      })
      expect(`${response.status} ${response.status === 200 ? '' : await response.text()}`).toBe('200 ')
      const { width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
      return { width, height }
    }
    const drawn = await pageOne()
    const name = [...pagesOne()].find((entry) => !before.has(entry))!
    // The page written anew under its name, as a renderer writes it: beside it, then renamed.
    const taller = await sharp(await readFile(join(previews, name)))
      .resize({ width: drawn.width, height: drawn.height + 1, fit: 'fill' })
      .webp()
      .toBuffer()
    await writeFile(join(previews, `${name}.tmp`), taller)
    await rename(join(previews, `${name}.tmp`), join(previews, name))
    for (let n = 0; n < 3; n++) expect(await pageOne()).toEqual({ width: drawn.width, height: drawn.height + 1 })
  })

  test('a watermark that cannot be laid is a 422 for that page, never a 503 for ever: the overlay goes, and is drawn anew next time', async () => {
    const link = await addLink(server, file.id, { watermark: 'Damaged overlay {visit}' })
    const who = await reader(link)
    const previews = join(server.dataDir, 'previews')
    const pageTwo = () =>
      untilDrawn(() =>
        server.callInProcess('GET', `${link.path}/pages/2?w=800`, {
          headers: { 'user-agent': FIREFOX, 'x-forwarded-for': '198.18.13.3', cookie: who.cookie },
        }),
      )
    const overlays = () => new Set(readdirSync(previews).filter((entry) => entry.startsWith('watermark-')))
    const before = overlays()
    expect((await pageTwo()).status).toBe(200)
    const overlay = [...overlays()].find((entry) => !before.has(entry))!
    // The cached overlay damaged on disk (a cache: anything in it may be lost or cut short).
    await writeFile(join(previews, overlay), 'not a PNG')
    const refused = await pageTwo()
    expect(refused.status).toBe(422)
    expect(refused.headers.get('retry-after')).toBeNull()
    expect(await refused.text()).toBe('Page 2 of this document cannot be drawn.')
    const again = await pageTwo()
    expect(again.status).toBe(200)
    expect((await sharp(Buffer.from(await again.arrayBuffer())).metadata()).width).toBe(800)
  })

  test('the downloaded PDF carries the reader’s watermark as text on every page; range requests read the same copy', async () => {
    const link = await addLink(server, file.id, { watermark: 'Copy for visit {visit}' })
    const alice = await reader(link)
    const download = await get(`${link.path}/download`, { cookie: alice.cookie })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('application/pdf')
    const stamped = new Uint8Array(await download.arrayBuffer())
    for (const n of [1, 2]) {
      const text = await textOf(stamped, n)
      expect(text).toContain(`Quarterly figures ${n}`)
      expect(text).toContain(`Copy for visit ${alice.visit}`)
    }
    // /file (inline) is the same copy, and a range of it is that copy's bytes.
    const range = await get(`${link.path}/file`, { cookie: alice.cookie, range: 'bytes=0-99' })
    expect(range.status).toBe(206)
    expect(range.headers.get('content-range')).toBe(`bytes 0-99/${stamped.length}`)
    expect(Buffer.from(await range.arrayBuffer()).equals(Buffer.from(stamped.subarray(0, 100)))).toBe(true)
    expect(range.headers.get('etag')).toBe(download.headers.get('etag'))
    // Another reader's copy carries their own visit.
    const bob = await reader(link)
    const bobs = new Uint8Array(await (await get(`${link.path}/download`, { cookie: bob.cookie })).arrayBuffer())
    expect(await textOf(bobs)).toContain(`Copy for visit ${bob.visit}`)
    expect(await textOf(bobs)).not.toContain(alice.visit)
  })

  test('{email} is the address the reader was let in with; a value the request lacks is left out, never the raw placeholder', async () => {
    const link = await addLink(server, file.id, { watermark: '{email} {label} {visit}', label: 'Board pack', access: 'email' })
    const gate = await get(link.path)
    expect(gate.status).toBe(200)
    const given = await server.call('POST', `${link.path}/reader`, {
      headers: { 'user-agent': FIREFOX, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=carol%40example.com',
    })
    expect(given.status).toBe(303)
    const readerCookie = given.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const page = await get(link.path, { cookie: readerCookie })
    const cookie = [readerCookie, ...page.headers.getSetCookie().map((line) => line.split(';')[0])].join('; ')
    const visit = /pdfshare_visit=([^.;]+)\./.exec(cookie)![1]!
    const pdf = new Uint8Array(await (await get(`${link.path}/download`, { cookie })).arrayBuffer())
    expect(await textOf(pdf)).toContain(`carol@example.com Board pack ${visit}`)
    // Without the page first (no visit cookie): the visit is a dash, the rest as before.
    const direct = new Uint8Array(await (await get(`${link.path}/download`, { cookie: readerCookie })).arrayBuffer())
    expect(await textOf(direct)).toContain('carol@example.com Board pack -')
    expect(await textOf(direct)).not.toContain('{visit}')
  })

  test('one visitor twice without its cookie (another browser alike on the same address): not counted again, and given that visit', async () => {
    const link = await addLink(server, file.id, { watermark: 'Reader {visit}' })
    const same = { 'user-agent': FIREFOX, 'x-forwarded-for': '198.18.13.7' }
    const visitOf = (response: Response) => /pdfshare_visit=([^.;]+)\./.exec(response.headers.getSetCookie().join('; '))?.[1]
    const first = await server.call('GET', link.path, { headers: same })
    const again = await server.call('GET', link.path, { headers: same })
    expect(visitOf(first)).toBeTruthy()
    expect(visitOf(again)).toBe(visitOf(first))
    const { views } = (await server.ctx.db.orm.query.links.findFirst({ where: (links, { eq }) => eq(links.id, link.id) }))!
    expect(views).toBe(1)
    // A link without a watermark keeps its rule: a repeat sets no visit cookie.
    const plain = await addLink(server, file.id)
    await server.call('GET', plain.path, { headers: same })
    expect(visitOf(await server.call('GET', plain.path, { headers: same }))).toBeUndefined()
  })

  test('a PDF that cannot carry a watermark (encrypted) is never sent without one: its download is a 422, its pages are still drawn', async () => {
    const locked = await uploadPdf(server, owner, { bytes: passwordProtected('open sesame', 'Sealed'), name: 'sealed.pdf' })
    const link = await addLink(server, locked.id, { watermark: 'Reader {visit}' })
    const alice = await reader(link)
    for (const route of ['/download', '/file']) {
      const refused = await get(`${link.path}${route}`, { cookie: alice.cookie })
      expect(`${route} ${refused.status}`).toBe(`${route} 422`)
      const body = await refused.text()
      expect(body).toContain('cannot carry one')
      expect(body).not.toContain('%PDF-')
    }
  })
})
