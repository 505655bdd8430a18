import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { createApp } from '../../src/app'
import { DRAWN_AHEAD } from '../../src/core/previews/draw-ahead'
import { PAGE_WIDTHS } from '../../src/core/previews/render-page'
import { makePdf } from '../../scripts/support/pdf'
import { BASE, form, startTestApp } from '../support/harness'
import { addLink, type TestLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { FIREFOX, SLACKBOT } from '../support/user-agents'

// The first page at once (docs/share-page.md, "Page 1 at once"): page 1 of every new PDF is drawn ahead in the
// background, and the share page names its image, with its size reserved, so it is on screen before any script.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_DRAW_AHEAD: 'true' })
const owner = await server.user('first-page-owner')

/** How often a test looks (every 100 ms) for what the renderers do in the background: up to 150 s. */
const DRAWN_AHEAD_POLLS = 1500
let addresses = 0
const get = (path: string, headers: Record<string, string> = {}) =>
  server.call('GET', path, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': `198.18.9.${++addresses % 250}`, ...headers } })

/**
 * The link's page once it names page 1's image (drawn ahead in the background: a few seconds, on a quiet machine;
 * the renderers work at a lower priority than anything else, so on a busy one it may take minutes).
 */
async function pageNamingFirstPage(link: TestLink, headers: Record<string, string> = {}): Promise<string> {
  for (let tries = 0; tries < DRAWN_AHEAD_POLLS; tries++) {
    const page = await (await get(link.path, headers)).text()
    if (page.includes('id="first-page"')) return page
    await Bun.sleep(100)
  }
  throw new Error(`${link.path} never named its first page`)
}

const attribute = (html: string, tag: RegExp, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag.exec(html)?.[0] ?? '')?.[1]
const FIRST_IMG = /<div id="first-page"[\s\S]*?<img [^>]*>/
const PRELOAD = /<link rel="preload" as="image"[^>]*>/

describe('page 1 at once', () => {
  test('after an upload, page 1 is drawn ahead at the common widths and the page names it, its size reserved', async () => {
    const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'letter.pdf' })
    const link = await addLink(server, file.id)
    const page = await pageNamingFirstPage(link)
    const img = FIRST_IMG.exec(page)![0]
    // US Letter at pdf.js's "auto" zoom (125 %): a 1020 px page box, the drawing 18 px of border narrower.
    expect([attribute(img, /.*/, 'width'), attribute(img, /.*/, 'height')]).toEqual(['1002', '1302'])
    expect(attribute(img, /.*/, 'alt')).toBe('Page 1 of letter.pdf')
    expect(attribute(img, /.*/, 'fetchpriority')).toBe('high')
    const srcset = PAGE_WIDTHS.map((w) => `/base${link.path}/pages/1?w=${w} ${w}w`).join(', ')
    expect(attribute(img, /.*/, 'srcset')).toBe(srcset)
    expect(attribute(img, /.*/, 'sizes')).toBe('(max-width: 1060px) calc(100vw - 58px), 1002px')
    // The head asks for the same image first, at high priority; the loading spinner is not shown over it.
    expect(attribute(page, PRELOAD, 'imagesrcset')).toBe(srcset)
    expect(attribute(page, PRELOAD, 'imagesizes')).toBe(attribute(img, /.*/, 'sizes'))
    expect(attribute(page, PRELOAD, 'fetchpriority')).toBe('high')
    expect(page).toContain('<div id="status" class="status" role="status" aria-live="polite" hidden></div>')
    // Only the page's own small stylesheet holds back the first paint; the viewer's script and pdf.js's stylesheet
    // (400 KB) are named for the one small script, which fetches them beside page 1 and uses them once it is painted.
    const head = page.slice(0, page.indexOf('</head>'))
    const blocking = [...head.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((match) => match[1]!)
    expect(blocking).toEqual([expect.stringMatching(/^\/base\/assets\/page-\w+\.css$/)])
    expect([...head.matchAll(/<script [^>]*>/g)].map((match) => match[0])).toEqual([
      expect.stringMatching(/^<script type="module" src="\/base\/assets\/boot-\w+\.js">$/),
    ])
    expect(head).not.toMatch(/modulepreload|prefetch|as="style"|as="script"/)
    const pdfjsStyle = attribute(page, /<div id="app" [^>]*>/, 'data-pdfjs-style')!
    expect(pdfjsStyle).toMatch(/^\/base\/assets\/viewer-\w+\.css$/)
    expect(attribute(page, /<div id="app" [^>]*>/, 'data-viewer')).toMatch(/^\/base\/assets\/viewer-\w+\.js$/)
    const sizes = await Promise.all([blocking[0]!, pdfjsStyle].map(async (path) => (await get(path.replace(/^\/base/, ''))).arrayBuffer()))
    expect(sizes[0]!.byteLength).toBeLessThan(16_000)
    expect(sizes[1]!.byteLength).toBeGreaterThan(100_000)
    // Drawn ahead: every common width is on disk before any reader asked (on the instance that took the upload).
    if (!server.instances) {
      const { blobKey } = (await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, file.id) }))!
      for (const width of DRAWN_AHEAD) expect(existsSync(server.ctx.previews.pagePathOf(blobKey, 1, width, 'webp'))).toBe(true)
      const row = await server.ctx.db.orm.query.pdfPages.findFirst({ where: (rows, { eq }) => eq(rows.blobKey, blobKey) })
      expect(row).toEqual({ blobKey, pages: 2, sizes: '612x792*2' })
    }
    for (const width of DRAWN_AHEAD) {
      const image = await get(`${link.path}/pages/1?w=${width}`)
      expect(image.status).toBe(200)
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata()
      expect([meta.format, meta.width]).toEqual(['webp', width])
      expect(Math.abs(meta.height! - (width * 792) / 612)).toBeLessThanOrEqual(1)
    }
  })

  test('a replacement is drawn ahead too: the page names the new PDF, landscape, at its own proportions', async () => {
    const file = await uploadPdf(server, owner, { bytes: makePdf(), name: 'before.pdf' })
    const link = await addLink(server, file.id)
    await pageNamingFirstPage(link)
    const replaced = await server.call('PUT', `/api/files/${file.id}`, {
      token: owner.token,
      body: form({ bytes: makePdf({ pageSize: () => [842, 595], text: () => 'Turned' }), name: 'after.pdf' }),
    })
    expect(replaced.status).toBe(200)
    for (let tries = 0; ; tries++) {
      const img = FIRST_IMG.exec(await pageNamingFirstPage(link))![0]
      // A4 turned: 842 × 595 points → a 1403 px box, 992 px high.
      if (attribute(img, /.*/, 'width') === '1385') {
        expect(attribute(img, /.*/, 'height')).toBe('974')
        break
      }
      if (tries > 100) throw new Error('the page never named the replacement')
      await Bun.sleep(100)
    }
  })

  test('a PDF from before page sizes were kept: its first reader starts the reading, a later one gets page 1 at once', async () => {
    const file = await uploadPdf(server, owner, { bytes: makePdf({ text: () => 'Older' }) })
    const link = await addLink(server, file.id)
    const { blobKey } = (await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, file.id) }))!
    // Drawn ahead once its sizes are recorded (the images go to the bucket first). Watched in the database, not
    // through the share page: on a balancer, a page asked of an instance that does not know the sizes yet would
    // start a draw of its own there, which could land in the bucket after the mark below.
    const sized = () => server.ctx.db.orm.query.pdfPages.findFirst({ where: (rows, { eq }) => eq(rows.blobKey, blobKey) })
    for (let tries = 0; tries < DRAWN_AHEAD_POLLS && !(await sized())?.sizes; tries++) await Bun.sleep(100)
    expect((await sized())?.sizes).toBe('612x792')
    // As if it had been uploaded before this release: its row has no sizes, and a server starts afresh.
    const { pdfPages } = server.ctx.db.tables
    await server.ctx.db.orm.update(pdfPages).set({ sizes: null }).where(eq(pdfPages.blobKey, blobKey))
    const app = createApp(server.ctx)
    const view = async () =>
      (
        await app.handle(new Request(`${BASE}${link.path}`, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': '198.18.10.1' } }))
      ).text()
    expect(await view()).not.toContain('id="first-page"')
    let named = false
    for (let tries = 0; tries < DRAWN_AHEAD_POLLS && !named; tries++) {
      named = (await view()).includes('id="first-page"')
      if (!named) await Bun.sleep(100)
    }
    expect(named).toBe(true)
    const row = await server.ctx.db.orm.query.pdfPages.findFirst({ where: (rows, { eq }) => eq(rows.blobKey, blobKey) })
    expect(row?.sizes).toBe('612x792')
  })

  test('named only where its bytes open: not on a gate page, not for an ungranted page of a limited link, not to unfurlers of a gated link', async () => {
    const file = await uploadPdf(server, owner, { bytes: makePdf(), name: 'guarded.pdf' })
    await pageNamingFirstPage(await addLink(server, file.id))
    const password = await addLink(server, file.id, { password: 'open sesame' })
    expect(await (await get(password.path)).text()).not.toContain('/pages/1')
    const unlocked = await server.call('POST', password.path, {
      headers: { 'user-agent': FIREFOX, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=open+sesame',
    })
    const cookie = unlocked.headers.getSetCookie()[0]!.split(';')[0]!
    expect(await (await get(password.path, { cookie })).text()).toContain('id="first-page"')
    const email = await addLink(server, file.id, { access: 'email' })
    expect(await (await get(email.path, { 'user-agent': SLACKBOT })).text()).not.toContain('/pages/1')
    // A limited link's page for a request that was not counted (an unfurler): its bytes and images stay closed.
    const limited = await addLink(server, file.id, { maxViews: 3 })
    const unfurled = await (await get(limited.path, { 'user-agent': SLACKBOT })).text()
    expect(unfurled).toContain('data-ungranted="1"')
    expect(unfurled).not.toContain('id="first-page"')
    expect(await (await get(limited.path)).text()).toContain('id="first-page"')
  })

  test('a PDF PDFium cannot open names no image, and its page still opens for pdf.js', async () => {
    // A valid PDF header and trailer around a page tree that points nowhere: pdf.js recovers, PDFium refuses.
    const broken = new TextEncoder().encode(
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    )
    const upload = await server.call('POST', '/api/files/upload', { token: owner.token, body: form({ bytes: broken, name: 'broken.pdf' }) })
    expect(upload.status).toBe(201)
    const { id } = (await upload.json()).data
    const link = await addLink(server, id)
    if (server.instances)
      await Bun.sleep(1_500) // the instance's background reading has failed by now
    else {
      const refused = () => server.log.lines.some((line) => line.includes(`page 1 of file ${id} was not drawn ahead`))
      for (let tries = 0; tries < DRAWN_AHEAD_POLLS && !refused(); tries++) await Bun.sleep(100)
      expect(refused()).toBe(true)
    }
    const page = await get(link.path)
    expect(page.status).toBe(200)
    expect(await page.text()).not.toContain('id="first-page"')
  })

  test("several instances: page 1 drawn ahead by one is served by the others (from the bucket, or the embedded install's one data dir), and goes with its PDF", async () => {
    const file = await uploadPdf(server, owner, { bytes: makePdf(), name: 'shared.pdf' })
    const link = await addLink(server, file.id)
    const { blobKey } = (await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, file.id) }))!
    // Drawn ahead once its sizes are recorded (the images go to the bucket first). Watched in the database, not
    // through the share page: on a balancer, a page asked of an instance that does not know the sizes yet would
    // start a draw of its own there, which could land in the bucket after the mark below.
    const sized = () => server.ctx.db.orm.query.pdfPages.findFirst({ where: (rows, { eq }) => eq(rows.blobKey, blobKey) })
    for (let tries = 0; tries < DRAWN_AHEAD_POLLS && !(await sized())?.sizes; tries++) await Bun.sleep(100)
    expect((await sized())?.sizes).toBe('612x792')
    // Mark the kept copy (in the bucket, or on the embedded install's data dir): what another instance answers
    // then shows where it came from.
    const marker = await sharp({ create: { width: 1200, height: 1553, channels: 3, background: '#ff0000' } })
      .webp()
      .toBuffer()
    const local = server.ctx.previews.pagePathOf(blobKey, 1, 1200, 'webp')
    await Bun.write(local, marker)
    await server.ctx.previews.pushFirstPage(blobKey, 1200)
    // Another instance of the install, with a data dir of its own (closed with the test file).
    const other = await startTestApp({ PDFSHARE_RATE_LIMIT_SHARE: '0' }, { sameInstallAs: server })
    const image = await other.call('GET', `${link.path}/pages/1?w=1200`, { headers: { 'user-agent': FIREFOX } })
    expect(image.status).toBe(200)
    expect(Buffer.from(await image.arrayBuffer()).equals(marker)).toBe(true)
    const deleted = await server.call('DELETE', `/api/files/${file.id}`, { token: owner.token })
    expect(deleted.status).toBe(200)
    for (let tries = 0; tries < DRAWN_AHEAD_POLLS && (await other.ctx.previews.pullFirstPage(blobKey, 1200)); tries++) await Bun.sleep(100)
    expect(await other.ctx.previews.pullFirstPage(blobKey, 1200)).toBe(false)
  })
})
