import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import type { LinkDto } from '../../src/routes/links/model'
import type { RoomDto } from '../../src/routes/rooms/model'
import { safeName } from '../../src/core/rooms/room-zip'
import { startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'
import { FIREFOX, SAFARI_PHONE } from '../support/user-agents'

/**
 * The reader's side of a room link (docs/rooms.md): a document's routes under `<link URL>/docs/:fileId` open
 * exactly when the room link would and the file is in the room now; the room's gates are passed once.
 */
const server = await startTestApp()
const { links, files, visits, visitPages } = server.ctx.db.tables
const alice = await server.user()

const api = async <T>(method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200): Promise<T> => {
  const response = await server.call(method, path, {
    token: alice.token,
    body: body === undefined ? null : JSON.stringify(body),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  })
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}

const pdfs = [makePdf({ pages: 2, text: (n) => `Alpha ${n}` }), makePdf({ text: () => 'Beta' }), makePdf({ text: () => 'Gamma' })]
const [a, b, outside] = [
  await uploadPdf(server, alice, pdfs[0]),
  await uploadPdf(server, alice, pdfs[1]),
  await uploadPdf(server, alice, pdfs[2]),
]
const slugOf = (url: string) => new URL(url).pathname.split('/').pop()!
const get = (path: string, cookie?: string) => server.call('GET', path, { headers: cookie ? { cookie } : {} })
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())

/** The routes of a document ('': its viewer page), each a 200 when open. */
const ROUTES = ['', 'file', 'download', 'pages/1/text', 'preview.png'] as const
const routeOf = (slug: string, fileId: string, route: (typeof ROUTES)[number]) =>
  `/s/${slug}/docs/${fileId}${route === '' ? '' : `/${route}`}`

describe("a room link's documents", () => {
  test('a document in the room opens with its own bytes; a file outside it, a file link and a malformed id are 404s', async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', { name: 'Pack', items: [{ fileId: a.id, folder: 'One' }, { fileId: b.id }] })
    const slug = slugOf(room.shareUrl)
    const file = await get(routeOf(slug, a.id, 'file'))
    expect(file.status).toBe(200)
    expect(await bytesOf(file)).toEqual(new Uint8Array(pdfs[0]!))
    const download = await get(routeOf(slug, b.id, 'download'))
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toStartWith('attachment')
    expect(await bytesOf(download)).toEqual(new Uint8Array(pdfs[1]!))
    const text = await get(routeOf(slug, a.id, 'pages/1/text'))
    expect(text.status).toBe(200)
    expect(await text.text()).toContain('"Alpha"')
    const image = await get(`/s/${slug}/docs/${a.id}/pages/2?w=480`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toStartWith('image/')

    for (const route of ROUTES) {
      expect((await get(routeOf(slug, outside.id, route))).status).toBe(404)
      expect((await get(routeOf(slug, 'not-an-id!', route))).status).toBe(404)
      // A file's own link has no documents: its slug with /docs/ is no way around a room.
      expect((await get(routeOf(slugOf(outside.shareUrl), outside.id, route))).status).toBe(404)
    }
  })

  test("a document's page is the viewer a file link gets, with the way back to the room and on to the previous and next", async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', {
      name: 'Viewer <room>',
      items: [{ fileId: a.id }, { fileId: b.id, folder: 'Later' }, { fileId: outside.id }],
    })
    const slug = slugOf(room.shareUrl)
    const first = await get(routeOf(slug, a.id, ''))
    expect(first.status).toBe(200)
    const html = await first.text()
    // pdf.js over the document's own bytes, under the document's prefix.
    expect(html).toContain(`data-file="/base/s/${slug}/docs/${a.id}/file"`)
    expect(html).toContain(`data-download="/base/s/${slug}/docs/${a.id}/download"`)
    expect(html).toContain(`href="/base/s/${slug}" title="Back to Viewer &lt;room&gt;"`)
    expect(html).not.toContain('rel="prev"')
    expect(html).toContain(`rel="next" href="/base/s/${slug}/docs/${b.id}"`)
    const middle = await (await get(routeOf(slug, b.id, ''))).text()
    expect(middle).toContain(`rel="prev" href="/base/s/${slug}/docs/${a.id}"`)
    expect(middle).toContain(`rel="next" href="/base/s/${slug}/docs/${outside.id}"`)
    const last = await (await get(routeOf(slug, outside.id, ''))).text()
    expect(last).not.toContain('rel="next"')
    // The index leads to the document pages.
    expect(await (await get(`/s/${slug}`)).text()).toContain(`<a href="/base/s/${slug}/docs/${b.id}">`)
    // View-only or watermarked: pages drawn on the server, and no URL of the PDF in the page.
    for (const controls of [{ allowDownload: false }, { watermark: 'For {email}' }]) {
      const link = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, controls)
      const page = await (await get(routeOf(slugOf(link.url), b.id, ''))).text()
      expect(page).toContain('data-mode="images"')
      expect(page).toContain(`data-pages-url="/base/s/${slugOf(link.url)}/docs/${b.id}/pages/"`)
      expect(page).not.toContain('data-file=')
    }
    // A document's card image.
    const preview = await get(routeOf(slug, a.id, 'preview.png'))
    expect(preview.status).toBe(200)
    expect(preview.headers.get('content-type')).toBe('image/png')
  })

  test("views: the room's index counts the room link's view (its limit applies there), a document its file's view in the room", async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', { name: 'Counted', items: [{ fileId: a.id }, { fileId: b.id }] })
    const link = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { maxViews: 1 })
    const slug = slugOf(link.url)
    const as = (userAgent: string, cookie = '') => ({ 'user-agent': userAgent, ...(cookie && { cookie }) })
    const open = (path: string, userAgent: string, cookie = '') => server.call('GET', path, { headers: as(userAgent, cookie) })
    const linkViews = async () => (await api<LinkDto>('GET', `/api/links/${link.id}`)).views
    const fileViews = async (id: string) =>
      (await server.ctx.db.orm.select({ views: files.views }).from(files).where(eq(files.id, id)))[0]!.views
    const [aViews, bViews] = [await fileViews(a.id), await fileViews(b.id)]

    // A document opened before the room (a limited room link): to the index first, nothing counted.
    const early = await open(routeOf(slug, a.id, ''), FIREFOX)
    expect(early.status).toBe(303)
    expect(early.headers.get('location')).toBe(`/base/s/${slug}`)
    expect(await linkViews()).toBe(0)
    const index = await open(`/s/${slug}`, FIREFOX)
    expect(index.status).toBe(200)
    const cookie = index.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect(cookie).toContain('pdfshare_grant=')
    expect(await linkViews()).toBe(1)
    expect(await fileViews(a.id)).toBe(aViews)
    // Each document opened in the room: a view of its file, a visit of the room link and that file; the room
    // link's view limit (used up now) refuses none of them, and counts none.
    const pageA = await open(routeOf(slug, a.id, ''), FIREFOX, cookie)
    expect(pageA.status).toBe(200)
    const token = /data-visit="([^"]+)"/.exec(await pageA.text())?.[1]
    expect(token).toBeDefined()
    expect(pageA.headers.getSetCookie().join()).toContain(`Path=/base/s/${slug}/docs/${a.id}`)
    expect((await open(routeOf(slug, b.id, ''), FIREFOX, cookie)).status).toBe(200)
    expect((await open(routeOf(slug, a.id, ''), FIREFOX, cookie)).status).toBe(200) // a repeat: not counted again
    expect(await linkViews()).toBe(1)
    expect([await fileViews(a.id), await fileViews(b.id)]).toEqual([aViews + 1, bViews + 1])
    const recorded = await server.ctx.db.orm.select().from(visits).where(eq(visits.linkId, link.id)).orderBy(visits.seq)
    expect(recorded.map((v) => v.fileId)).toEqual([a.id, b.id])
    // Reading time per page, as a file link's page reports it, into that document's visit.
    const batch = await server.call('POST', `${routeOf(slug, a.id, '')}/reading`, {
      body: JSON.stringify({ visit: token, pages: [{ page: 2, ms: 4000 }] }),
      headers: { 'content-type': 'text/plain', cookie },
    })
    expect(batch.status).toBe(204)
    const read = await server.ctx.db.orm.select().from(visitPages).where(eq(visitPages.visitId, recorded[0]!.id))
    expect(read.map((p) => [p.page, Number(p.ms)])).toEqual([[2, 4000]])
    // Another reader: the room is used up for them, at its index and at its documents.
    expect((await open(`/s/${slug}`, SAFARI_PHONE)).status).toBe(410)
    expect((await open(routeOf(slug, b.id, ''), SAFARI_PHONE)).status).toBe(410)
  })

  test('a document taken out of the room is closed at once, on every route', async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', { name: 'Removal', items: [{ fileId: a.id }, { fileId: b.id }] })
    const slug = slugOf(room.shareUrl)
    for (const route of ROUTES) expect((await get(routeOf(slug, a.id, route))).status).toBe(200)
    await api('PUT', `/api/rooms/${room.id}`, { items: [{ fileId: b.id }] })
    for (const route of ROUTES) expect((await get(routeOf(slug, a.id, route))).status).toBe(404)
    expect((await get(`/s/${slug}/docs/${a.id}/pages/1?w=480`)).status).toBe(404)
    expect((await get(routeOf(slug, b.id, 'file'))).status).toBe(200)
  })

  test('one password for the whole room: POST <link URL> with it answers a cookie and a 303, which opens every document', async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', { name: 'Locked', items: [{ fileId: a.id }, { fileId: b.id }] })
    const link = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { password: 'open sesame' })
    const slug = slugOf(link.url)
    expect((await get(routeOf(slug, a.id, 'file'))).status).toBe(401)
    expect((await get(routeOf(slug, b.id, 'pages/1/text'))).status).toBe(401)
    const form = (password: string) =>
      server.call('POST', `/s/${slug}`, {
        body: new URLSearchParams({ password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    expect((await form('wrong')).status).toBe(401)
    const unlocked = await form('open sesame')
    expect(unlocked.status).toBe(303)
    const cookie = unlocked.headers.get('set-cookie')!.split(';')[0]!
    expect((await get(routeOf(slug, a.id, 'file'), cookie)).status).toBe(200)
    expect((await get(routeOf(slug, b.id, 'pages/1/text'), cookie)).status).toBe(200)
    // The cookie is the room link's: another room's link, or the file's own, is not opened by it.
    expect((await get(routeOf(slug, outside.id, 'file'), cookie)).status).toBe(404)
  })

  test('a view-only room link sends no PDF byte of any document', async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', { name: 'View only', items: [{ fileId: a.id }, { fileId: b.id }] })
    const link = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { allowDownload: false })
    for (const fileId of [a.id, b.id])
      for (const route of ['file', 'download'] as const) {
        const response = await get(routeOf(slugOf(link.url), fileId, route))
        expect(response.status).toBe(403)
        expect(new TextDecoder().decode(await bytesOf(response))).not.toContain('%PDF')
      }
    expect((await get(routeOf(slugOf(link.url), a.id, 'pages/1/text'))).status).toBe(200)
  })

  test('the room page: one gate, then the index of its folders and documents (no script), filtered by title', async () => {
    const [one, two, three] = [
      await uploadPdf(server, alice, makePdf({ pages: 3 }), { title: 'Annual report' }),
      await uploadPdf(server, alice, makePdf(), { title: 'Balance sheet' }),
      await uploadPdf(server, alice, makePdf(), { title: 'Charter <b>' }),
    ]
    const room = await api<RoomDto>('POST', '/api/rooms', {
      name: 'Due diligence',
      items: [
        { fileId: one.id, folder: 'Financials/2025' },
        { fileId: two.id, folder: 'Financials/2025' },
        { fileId: three.id, folder: 'Legal' },
      ],
    })
    const link = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { password: 'open sesame' })
    const slug = slugOf(link.url)
    const gate = await get(`/s/${slug}`)
    expect(gate.status).toBe(200)
    const gateText = await gate.text()
    expect(gateText).toContain('name="password"')
    expect(gateText).not.toContain('Annual report')
    const unlocked = await server.call('POST', `/s/${slug}`, {
      body: new URLSearchParams({ password: 'open sesame' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(unlocked.status).toBe(303)
    expect(unlocked.headers.get('location')).toEndWith(`/s/${slug}`)
    const cookie = unlocked.headers.get('set-cookie')!.split(';')[0]!
    const index = await get(`/s/${slug}`, cookie)
    expect(index.status).toBe(200)
    const page = await index.text()
    expect(page).not.toContain('<script')
    expect(page).toContain('name="viewport"')
    for (const title of [
      'Annual report',
      'Balance sheet',
      'Charter &lt;b&gt;',
      '<h2>Financials/2025</h2>',
      '<h2>Legal</h2>',
      'Due diligence',
    ])
      expect(page).toContain(title)
    for (const file of [one, two, three]) expect(page).toContain(`/s/${slug}/docs/${file.id}/pages/1?w=480`)
    expect(page.indexOf('Annual report')).toBeLessThan(page.indexOf('Balance sheet'))
    const filtered = await (await get(`/s/${slug}?q=BALANCE`, cookie)).text()
    expect(filtered).toContain('Balance sheet')
    expect(filtered).not.toContain('Annual report')
    // Its page-1 image opens with the room's cookie.
    expect((await get(`/s/${slug}/docs/${one.id}/pages/1?w=480`, cookie)).status).toBe(200)
    // A document taken out leaves the index at once; an empty room, like an unknown link, is a 404.
    await api('PUT', `/api/rooms/${room.id}`, { items: [{ fileId: two.id }] })
    expect(await (await get(`/s/${slug}`, cookie)).text()).not.toContain('Annual report')
    await api('PUT', `/api/rooms/${room.id}`, { items: [] })
    expect((await get(`/s/${slug}`, cookie)).status).toBe(404)
  })

  test('<link URL>/download: a ZIP of every document in its folders, byte for byte; 403 when downloads are off', async () => {
    const first = await uploadPdf(server, alice, pdfs[0], { title: 'Report: Q3/Q4' })
    const second = await uploadPdf(server, alice, pdfs[1], { title: 'Report: Q3/Q4' })
    const room = await api<RoomDto>('POST', '/api/rooms', {
      name: 'Zipped',
      items: [{ fileId: first.id, folder: 'Financials/2025' }, { fileId: second.id, folder: 'Financials/2025' }, { fileId: b.id }],
    })
    const response = await get(`/s/${slugOf(room.shareUrl)}/download`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toContain('Zipped.zip')
    const dir = mkdtempSync(join(tmpdir(), 'pdfshare-room-zip-'))
    try {
      writeFileSync(join(dir, 'room.zip'), await bytesOf(response))
      const unzip = Bun.spawnSync(['unzip', '-q', join(dir, 'room.zip'), '-d', join(dir, 'out')])
      expect(unzip.exitCode, unzip.stderr.toString()).toBe(0)
      const sha = (path: string) => new Bun.CryptoHasher('sha256').update(readFileSync(join(dir, 'out', path))).digest('hex')
      expect(sha('Financials/2025/Report_ Q3_Q4.pdf')).toBe(first.sha256)
      expect(sha('Financials/2025/Report_ Q3_Q4 (2).pdf')).toBe(second.sha256)
      expect(sha(safeName(b.title || b.filename))).toBe(b.sha256)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const viewOnly = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { allowDownload: false })
    const refused = await get(`/s/${slugOf(viewOnly.url)}/download`)
    expect(refused.status).toBe(403)
    expect(new TextDecoder().decode(await bytesOf(refused))).not.toContain('%PDF')
    const locked = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { password: 'open sesame' })
    expect((await get(`/s/${slugOf(locked.url)}/download`)).status).toBe(401)
  })

  test('property: a document route opens if and only if the room link is open and the file is in the room', async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', { name: 'Property', items: [] })
    const link = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, {})
    const slug = slugOf(link.url)
    const states = ['active', 'disabled', 'expired', 'used_up'] as const
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...states),
        fc.subarray([a.id, b.id]),
        fc.constantFrom(a.id, b.id, outside.id),
        fc.constantFrom(...ROUTES),
        async (state, members, fileId, route) => {
          await api('PUT', `/api/rooms/${room.id}`, { items: members.map((id) => ({ fileId: id })) })
          await server.ctx.db.orm
            .update(links)
            .set({
              disabled: state === 'disabled',
              expiresAt: state === 'expired' ? Date.now() - 60_000 : null,
              maxViews: state === 'used_up' ? 1 : null,
              views: state === 'used_up' ? 1 : 0,
            })
            .where(eq(links.id, link.id))
          const response = await get(routeOf(slug, fileId, route))
          await response.arrayBuffer()
          // Outside the room: as if the link did not exist; in it: the room link's own answer.
          const member = members.includes(fileId)
          const expected = !member ? 404 : state === 'active' ? 200 : 410
          expect({ state, member, route, status: response.status }).toEqual({ state, member, route, status: expected })
        },
      ),
      { numRuns: 40 },
    )
  })
})
