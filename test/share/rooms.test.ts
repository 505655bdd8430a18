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
import { routeEvents } from '../../src/core/notifications/route-events'
import { randomId } from '../../src/lib/ids'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { eventually } from '../support/eventually'
import { untilDrawn } from '../support/busy'
import { json, startTestApp } from '../support/harness'
import { startSmtpServer } from '../support/smtp'
import { uploadPdf } from '../support/uploads'
import { FIREFOX, SAFARI_PHONE, SLACKBOT } from '../support/user-agents'

/**
 * The reader's side of a room link (docs/rooms.md): a document's routes under `<link URL>/docs/:fileId` open
 * exactly when the room link would and the file is in the room now; the room's gates are passed once.
 */
const server = await startTestApp()
const { links, files, visits, visitPages, webhooks, webhookDeliveries, notificationChannels } = server.ctx.db.tables
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
const ROUTES = ['', 'file', 'download', 'pages/1/text', 'outline', 'preview.png'] as const
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
    const outline = await get(routeOf(slug, a.id, 'outline'))
    expect([outline.status, await outline.json()]).toEqual([200, []]) // the PDF has no bookmarks
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

  test("the room's analytics: per document, and per reader of a gated link which documents they opened, as JSON and CSV", async () => {
    const room = await api<RoomDto>('POST', '/api/rooms', {
      name: 'Read',
      items: [{ fileId: a.id }, { fileId: b.id, folder: 'Two' }, { fileId: outside.id }],
    })
    const link = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { access: 'email' })
    const slug = slugOf(link.url)
    const readerCookie = async (email: string, userAgent: string) => {
      const entered = await server.call('POST', `/s/${slug}/reader`, {
        body: new URLSearchParams({ email }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      })
      expect(entered.status).toBe(303)
      return entered.headers.getSetCookie()[0]!.split(';')[0]!
    }
    const open = (path: string, userAgent: string, cookie: string) =>
      server.call('GET', path, { headers: { 'user-agent': userAgent, cookie } })
    const ann = await readerCookie('ann@example.com', FIREFOX)
    const bob = await readerCookie('bob@example.com', SAFARI_PHONE)
    for (const [cookie, userAgent, documents] of [
      [ann, FIREFOX, [a.id, b.id]],
      [bob, SAFARI_PHONE, [b.id]],
    ] as const) {
      expect((await open(`/s/${slug}`, userAgent, cookie)).status).toBe(200)
      for (const id of documents) expect((await open(routeOf(slug, id, ''), userAgent, cookie)).status).toBe(200)
    }
    type RoomAnalytics = import('../../src/routes/analytics/model').RoomAnalyticsDto
    const numbers = await api<RoomAnalytics>('GET', `/api/rooms/${room.id}/analytics`)
    expect(numbers.documents.map((d) => [d.fileId, d.folder, d.views, d.readers])).toEqual([
      [a.id, '', 1, 1],
      [b.id, 'Two', 2, 2],
      [outside.id, '', 0, 0],
    ])
    const byReader = Object.fromEntries(numbers.readers.map((r) => [r.reader, r]))
    expect([byReader['ann@example.com']!.opened, byReader['ann@example.com']!.of]).toEqual([2, 3])
    expect(byReader['ann@example.com']!.documents.map((d) => d.fileId).sort()).toEqual([a.id, b.id].sort())
    expect(byReader['bob@example.com']!.documents.map((d) => [d.fileId, d.title, d.views])).toEqual([[b.id, b.title || b.filename, 1]])
    const csv = await server.call('GET', `/api/rooms/${room.id}/analytics.csv`, { token: alice.token })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toStartWith('text/csv')
    const lines = (await csv.text()).trim().split('\r\n')
    expect(lines[0]).toBe('reader,fileId,title,inRoom,views,downloads,readingSeconds,lastVisitAt')
    expect(lines.filter((line) => line.startsWith('ann@example.com,')).length).toBe(2)
    expect(lines.filter((line) => line.startsWith(`bob@example.com,${b.id},`)).length).toBe(1)
    // Another user's room: 404, as a missing one.
    const mallory = await server.user()
    for (const path of [`/api/rooms/${room.id}/analytics`, `/api/rooms/${room.id}/analytics.csv`])
      expect((await server.call('GET', path, { token: mallory.token })).status).toBe(404)
  })

  test("the room's analytics name the documents each verified reader opened (a code mailed through a real SMTP server)", async () => {
    const smtp = await startSmtpServer()
    const mailing = await startTestApp({
      PDFSHARE_RATE_LIMIT_SHARE: '0',
      PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      PDFSHARE_MAIL_FROM: 'pdfshare <pdf@example.test>',
    })
    const worker = startMailWorker(mailing.ctx, { pollMs: 100 })!
    try {
      const owner = await mailing.user()
      const send = async <T>(path: string, body: unknown) =>
        (
          await json(
            await mailing.call('POST', path, {
              token: owner.token,
              body: JSON.stringify(body),
              headers: { 'content-type': 'application/json' },
            }),
          )
        ).data as T
      const [one, two] = [
        await uploadPdf(mailing, owner, { bytes: makePdf({ text: () => 'One' }) }),
        await uploadPdf(mailing, owner, { bytes: makePdf({ text: () => 'Two' }) }),
      ]
      const room = await send<RoomDto>('/api/rooms', { name: 'Verified', items: [{ fileId: one.id }, { fileId: two.id }] })
      const slug = slugOf((await send<LinkDto>(`/api/rooms/${room.id}/links`, { access: 'verified-email' })).url)
      // A reader's browser: its cookies kept from one answer to the next.
      const jar = new Map<string, string>()
      const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
      const post = async (route: 'reader' | 'code', fields: Record<string, string>) => {
        const response = await mailing.call('POST', `/s/${slug}/${route}`, {
          body: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': FIREFOX, cookie: cookie() },
        })
        for (const set of response.headers.getSetCookie()) {
          const [pair] = set.split(';')
          jar.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1))
        }
        return response
      }
      // A verified reader: the address, then the code mailed to it.
      expect((await post('reader', { email: 'kim@board.test' })).status).toBe(200)
      let code: string | undefined
      await eventually(() => {
        worker.nudge()
        code = /Your code is (\d{6})\./.exec(smtp.received.find((mail) => mail.to.includes('kim@board.test'))?.data ?? '')?.[1]
        expect(code).toBeDefined()
      })
      expect((await post('code', { email: 'kim@board.test', code: code! })).status).toBe(303)
      const open = (path: string) => mailing.call('GET', path, { headers: { 'user-agent': FIREFOX, cookie: cookie() } })
      expect((await open(`/s/${slug}`)).status).toBe(200)
      expect((await open(routeOf(slug, two.id, ''))).status).toBe(200)

      type RoomAnalytics = import('../../src/routes/analytics/model').RoomAnalyticsDto
      const numbers = (await json(await mailing.call('GET', `/api/rooms/${room.id}/analytics`, { token: owner.token })))
        .data as RoomAnalytics
      expect(numbers.readers.map((reader) => [reader.reader, reader.opened, reader.of, reader.documents.map((d) => d.fileId)])).toEqual([
        ['kim@board.test', 1, 2, [two.id]],
      ])
    } finally {
      worker.stop()
      await smtp.stop()
    }
  })

  test('notifications and digests say "opened room X, read n of m documents"; link.viewed names the room and the document', async () => {
    const carol = await server.user('carol')
    const as = (method: string, path: string, body?: unknown) =>
      server.call(method, path, {
        token: carol.token,
        body: body === undefined ? null : JSON.stringify(body),
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      })
    await server.ctx.db.orm.insert(webhooks).values({
      id: randomId(),
      ownerId: carol.id,
      url: 'https://hooks.example.test/in',
      events: JSON.stringify(['link.viewed']),
      secret: 'whsec_dGVzdA==',
      createdAt: Date.now(),
    })
    // A channel (its kind's settings are not what this test is about: this app has no SMTP to check one with).
    await server.ctx.db.orm
      .insert(notificationChannels)
      .values({ id: randomId(), ownerId: carol.id, kind: 'email', target: 'carol@example.test', createdAt: Date.now() })
    const [x, y, z] = [
      await uploadPdf(server, carol, makePdf(), { title: 'Minutes' }),
      await uploadPdf(server, carol, makePdf(), { title: 'Budget' }),
      await uploadPdf(server, carol, makePdf(), { title: 'Plan' }),
    ]
    const room = (await (await as('POST', '/api/rooms', { name: 'Board pack', items: [x, y, z].map((f) => ({ fileId: f.id })) })).json())
      .data as RoomDto
    const linkWith = async (notify: string) =>
      (await (await as('POST', `/api/rooms/${room.id}/links`, { access: 'email', notify })).json()).data as LinkDto
    const read = async (link: LinkDto, email: string, userAgent: string, documents: string[]) => {
      const slug = slugOf(link.url)
      const entered = await server.call('POST', `/s/${slug}/reader`, {
        body: new URLSearchParams({ email }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      })
      const cookie = entered.headers.getSetCookie()[0]!.split(';')[0]!
      const headers = { 'user-agent': userAgent, cookie }
      expect((await server.call('GET', `/s/${slug}`, { headers })).status).toBe(200)
      for (const id of documents) expect((await server.call('GET', routeOf(slug, id, ''), { headers })).status).toBe(200)
    }
    const told = await linkWith('on')
    const digested = await linkWith('hourly')
    await read(told, 'ann@example.com', FIREFOX, [x.id, y.id])
    await read(digested, 'ann@example.com', FIREFOX, [z.id])
    await read(digested, 'bob@example.com', SAFARI_PHONE, [x.id, y.id, z.id])
    await routeEvents(server.ctx)
    await routeEvents({ ...server.ctx, now: () => Date.now() + 2 * 60 * 60 * 1000 })
    const messages = JSON.stringify((await (await as('GET', '/api/notifications/deliveries?limit=50')).json()).data)
    expect(messages).toContain('New reader: Board pack')
    // The count is made with the message: 2 here; 1 where another instance routed the event between the two documents.
    expect(messages).toMatch(/ann@example\.com opened room \\"Board pack\\", read [12] of 3 documents, through/)
    expect(messages).toContain('Readers: ann@example.com (read 1 of 3 documents), bob@example.com (read 3 of 3 documents).')

    const payloads = (await server.ctx.db.orm.select().from(webhookDeliveries).where(eq(webhookDeliveries.event, 'link.viewed')))
      .map((row) => JSON.parse(row.payload))
      .filter((payload) => payload.data.room?.id === room.id)
    expect(payloads).toHaveLength(6)
    const first = payloads.find((payload) => payload.data.link.id === told.id && payload.data.document.fileId === x.id)
    expect(first.data.room).toEqual({ id: room.id, name: 'Board pack' })
    expect(first.data.document).toEqual({ fileId: x.id, title: 'Minutes' })
    expect(first.data.link).toEqual({ id: told.id, fileId: x.id, url: told.url, label: '' })
  })

  test("link cards: an unfurler gets the room's name and its first document's page 1, nothing more; an empty room is a 404", async () => {
    const first = await uploadPdf(server, alice, makePdf({ text: () => 'Cover' }), { title: 'Secret title', description: 'Secret words' })
    const room = await api<RoomDto>('POST', '/api/rooms', {
      name: 'Card room',
      description: 'Not for the card',
      items: [{ fileId: first.id }, { fileId: b.id }],
    })
    const slug = slugOf(room.shareUrl)
    // A card still being drawn (by any instance) is a placeholder for now: asked again until it is drawn.
    const bot = (path: string) => untilDrawn(() => server.call('GET', path, { headers: { 'user-agent': SLACKBOT } }))
    const page = await bot(`/s/${slug}`)
    expect(page.status).toBe(200)
    const head = (await page.text()).split('</head>')[0]!
    expect(head).toContain('<meta property="og:title" content="Card room">')
    expect(head).toContain(`<meta property="og:image" content="https://pdf.example.test/base/s/${slug}/preview.png">`)
    for (const word of ['og:description', 'Secret', 'Not for the card']) expect(head).not.toContain(word)
    expect((await api<LinkDto[]>('GET', `/api/rooms/${room.id}/links`))[0]!.views).toBe(0) // an unfurler is no view
    // The card image is the first document's.
    const card = await bot(`/s/${slug}/preview.png`)
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toBe('image/png')
    expect(await bytesOf(card)).toEqual(await bytesOf(await bot(`/s/${slug}/docs/${first.id}/preview.png`)))
    // Behind a password: the neutral card, as a file link's.
    const locked = await api<LinkDto>('POST', `/api/rooms/${room.id}/links`, { password: 'open sesame' })
    const lockedCard = await bot(`/s/${slugOf(locked.url)}/preview.png`)
    expect(lockedCard.status).toBe(200)
    const lockedBytes = await bytesOf(lockedCard)
    expect(lockedBytes).toEqual(await bytesOf(await bot(`/s/${slugOf(locked.url)}/docs/${first.id}/preview.png`)))
    expect(lockedBytes).not.toEqual(await bytesOf(await bot(`/s/${slug}/preview.png`)))
    await api('PUT', `/api/rooms/${room.id}`, { items: [] })
    expect((await bot(`/s/${slug}`)).status).toBe(404)
    expect((await bot(`/s/${slug}/preview.png`)).status).toBe(404)
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
