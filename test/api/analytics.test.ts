import { describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { createApp } from '../../src/app'
import { randomId } from '../../src/lib/ids'
import { pruneVisits } from '../../src/core/analytics/prune-visits'
import { BASE, json, startTestApp, type TestServer } from '../support/harness'
import { sharePathOf } from '../support/share-paths'
import { makePdf } from '../../scripts/support/pdf'
import { uploadPdf } from '../support/uploads'
import { browserNumber, FIREFOX, SAFARI_PHONE, SLACKBOT } from '../support/user-agents'

// Reading analytics through app.handle on a real libSQL file: visits written with counted views, reading
// batches, downloads, the owner's API, retention and the reader-side webhook events.
// X-Forwarded-For is trusted for one hop, so a test can stand for readers at different addresses.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0' })
const owner = await server.user('owner')
const stranger = await server.user('stranger')
const { meta, visitPages, visits, webhookDeliveries, webhooks } = server.ctx.db.tables

const DAY = 86_400_000
const TABLET = 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36'
/** The test's clock: every request of this file goes through an app that reads it. */
let now = Date.UTC(2026, 10, 20, 12, 0, 0)
const app = createApp({ ...server.ctx, now: () => now })

let addressCounter = 0
const nextAddress = () => `198.18.${++addressCounter >> 8}.${addressCounter & 255}`
const call = (method: string, path: string, init: { token?: string; body?: string; headers?: Record<string, string> } = {}) =>
  app.handle(
    new Request(`${BASE}${path}`, {
      method,
      body: init.body ?? null,
      headers: { ...(init.token && { authorization: `Bearer ${init.token}` }), ...init.headers },
    }),
  )
/** A reader at an address of its own (unless `x-forwarded-for` is given) opening a page. */
const open = (path: string, headers: Record<string, string> = {}) =>
  call('GET', path, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': nextAddress(), ...headers } })

type Shared = { id: string; path: string; linkId: string }
/** Four pages: reading batches may name pages 1 to 4 (a page past the last is refused). */
const FOUR_PAGES = makePdf({ pages: 4 })
async function newFile(user = owner): Promise<Shared> {
  const file = await uploadPdf(server, user, FOUR_PAGES)
  const links = await json(await server.call('GET', `/api/files/${file.id}/links`, { token: user.token }))
  return { id: file.id, path: sharePathOf(file), linkId: links.data[0].id }
}
async function newLink(file: Shared): Promise<Shared> {
  const response = await server.call('POST', `/api/files/${file.id}/links`, {
    token: owner.token,
    body: '{}',
    headers: { 'content-type': 'application/json' },
  })
  const { data } = await json(response)
  return { id: file.id, path: sharePathOf({ shareUrl: data.url }), linkId: data.id }
}

const visitsOf = (fileId: string) => server.ctx.db.orm.select().from(visits).where(eq(visits.fileId, fileId)).orderBy(visits.seq)
const pagesOf = (visitId: string) =>
  server.ctx.db.orm.select().from(visitPages).where(eq(visitPages.visitId, visitId)).orderBy(visitPages.page)
const tokenOf = async (response: Response) => /data-visit="([^"]+)"/.exec(await response.text())?.[1]
const visitCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('pdfshare_visit='))
    ?.split(';')[0]
const reading = (path: string, body: unknown, contentType = 'text/plain;charset=UTF-8') =>
  call('POST', `${path}/reading`, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': contentType },
  })
const analytics = async (path: string, token = owner.token) => json(await call('GET', path, { token }))

/** Opens the page as a new tracked reader and returns its visit id and reading token. */
async function readerVisit(file: Shared, headers: Record<string, string> = {}) {
  const response = await open(file.path, headers)
  expect(response.status).toBe(200)
  const token = (await tokenOf(response))!
  expect(token).toBeDefined()
  return { token, visitId: token.split('.')[0]!, cookie: visitCookie(response)! }
}

async function addWebhook(user: { id: string }, events: string[]) {
  await server.ctx.db.orm.insert(webhooks).values({
    id: randomId(),
    ownerId: user.id,
    url: 'https://hooks.example.test/in',
    events: JSON.stringify(events),
    secret: `whsec_${Buffer.from(randomId(24)).toString('base64')}`,
    createdAt: now,
  })
}
const deliveries = async (event: string) =>
  (await server.ctx.db.orm.select().from(webhookDeliveries).where(eq(webhookDeliveries.event, event))).map((row) => JSON.parse(row.payload))

describe('visits of counted views', () => {
  test('a counted view records a visit with link, device and referrer host, and never the raw address or User-Agent', async () => {
    const file = await newFile()
    const address = '203.0.113.77'
    const response = await open(file.path, {
      'user-agent': SAFARI_PHONE,
      'x-forwarded-for': address,
      referer: 'https://News.Example.com/thread/42?utm_source=secret-campaign',
    })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('data-visit="')
    expect(html).toContain(`data-reading="/base${file.path}/reading"`)
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('pdfshare_visit='))!
    expect(cookie).toContain(`Path=/base${file.path}`)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')

    const [row] = await visitsOf(file.id)
    expect(row).toMatchObject({
      linkId: file.linkId,
      fileId: file.id,
      at: now,
      referrerHost: 'news.example.com',
      device: 'phone',
      tracked: true,
      viewed: true,
      downloaded: false,
      readingMs: 0,
    })
    expect(html).toContain(`data-visit="${row!.id}.`)

    // Every text value of every table: no address, no User-Agent, no referrer path or query.
    const tables = await server.ctx.db.orm.all<{ name: string }>(
      server.ctx.db.dialect === 'postgres'
        ? sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
        : sql`SELECT name FROM sqlite_master WHERE type = 'table'`,
    )
    const texts: string[] = []
    for (const { name } of tables) {
      const rows = await server.ctx.db.orm.all<Record<string, unknown>>(sql.raw(`SELECT * FROM "${name}"`))
      for (const tableRow of rows) for (const value of Object.values(tableRow)) if (typeof value === 'string') texts.push(value)
    }
    expect(texts.length).toBeGreaterThan(20)
    for (const forbidden of [address, SAFARI_PHONE, 'iPhone', '/thread/42', 'secret-campaign']) {
      expect(texts.filter((text) => text.includes(forbidden))).toEqual([])
    }
  })

  test('bots, prefetches, HEAD, requests without a User-Agent and repeats record no visit', async () => {
    const file = await newFile()
    await open(file.path, { 'user-agent': SLACKBOT })
    await open(file.path, { 'sec-purpose': 'prefetch' })
    await call('HEAD', file.path, { headers: { 'user-agent': FIREFOX } })
    await call('GET', file.path, { headers: { 'x-forwarded-for': nextAddress() } })
    const first = await open(file.path, { 'x-forwarded-for': '192.0.2.10' })
    expect(await tokenOf(first)).toBeDefined()
    const repeat = await open(file.path, { 'x-forwarded-for': '192.0.2.10' })
    expect(await tokenOf(repeat)).toBeUndefined()
    const seen = first.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('pdfshare_seen='))!
      .split(';')[0]!
    await open(file.path, { cookie: seen })
    expect(await visitsOf(file.id)).toHaveLength(1)
  })

  test('devices: phone, tablet and desktop from the User-Agent', async () => {
    const file = await newFile()
    for (const ua of [SAFARI_PHONE, TABLET, FIREFOX]) await open(file.path, { 'user-agent': ua })
    expect((await visitsOf(file.id)).map((row) => row.device)).toEqual(['phone', 'tablet', 'desktop'])
  })

  test('Sec-GPC: 1 or DNT: 1: the view and the visit count, untracked, without a reading token; reading is refused', async () => {
    const file = await newFile()
    for (const header of [{ 'sec-gpc': '1' }, { dnt: '1' }] as Record<string, string>[]) {
      const response = await open(file.path, header)
      expect(response.status).toBe(200)
      expect(await response.text()).not.toContain('data-visit')
      const cookie = visitCookie(response)!
      const token = cookie.slice('pdfshare_visit='.length)
      now += 5000
      const refused = await reading(file.path, { visit: token, pages: [{ page: 1, ms: 1000 }] })
      expect(refused.status).toBe(403)
    }
    const rows = await visitsOf(file.id)
    expect(rows.map((row) => [row.tracked, row.viewed, row.readingMs])).toEqual([
      [false, true, 0],
      [false, true, 0],
    ])
    expect(await server.ctx.db.orm.select().from(visitPages).where(sql`${visitPages.visitId} IN (${rows[0]!.id}, ${rows[1]!.id})`)).toEqual(
      [],
    )
    const file2 = await json(await call('GET', `/api/files/${file.id}`, { token: owner.token }))
    expect(file2.data.views).toBe(2)
  })

  test('the visitor key is salted per day: the same reader is one key within a day and a new one the next day', async () => {
    const a = await newFile()
    const b = await newFile()
    const reader = { 'x-forwarded-for': '192.0.2.55', 'user-agent': browserNumber('salt') }
    await open(a.path, reader)
    await open(b.path, reader)
    const [dayOneA] = await visitsOf(a.id)
    const [dayOneB] = await visitsOf(b.id)
    expect(dayOneA!.visitor).toBe(dayOneB!.visitor)
    const saltBefore = (await server.ctx.db.orm.select().from(meta).where(eq(meta.key, 'visitor_salt')))[0]!.value
    now += DAY
    await open(a.path, reader)
    const [, dayTwo] = await visitsOf(a.id)
    expect(dayTwo).toBeDefined()
    expect(dayTwo!.visitor).not.toBe(dayOneA!.visitor)
    const saltAfter = (await server.ctx.db.orm.select().from(meta).where(eq(meta.key, 'visitor_salt')))[0]!.value
    expect(saltAfter.slice(0, 10)).toBe(new Date(now).toISOString().slice(0, 10))
    expect(saltAfter.slice(11)).not.toBe(saltBefore.slice(11))
    expect(Buffer.from(saltAfter.slice(11), 'base64')).toHaveLength(32)
  })
})

describe('reading batches', () => {
  test('batches add up per page and in the visit, as text/plain (a beacon) or JSON', async () => {
    const file = await newFile()
    const { token, visitId } = await readerVisit(file)
    now += 60_000
    const first = await reading(file.path, {
      visit: token,
      pages: [
        { page: 1, ms: 12_000 },
        { page: 2, ms: 3_000 },
      ],
    })
    expect(first.status).toBe(204)
    const second = await reading(
      file.path,
      {
        visit: token,
        pages: [
          { page: 2, ms: 4_000 },
          { page: 3, ms: 500 },
        ],
      },
      'application/json',
    )
    expect(second.status).toBe(204)
    expect((await pagesOf(visitId)).map((row) => [row.page, row.ms])).toEqual([
      [1, 12_000],
      [2, 7_000],
      [3, 500],
    ])
    expect((await visitsOf(file.id))[0]!.readingMs).toBe(19_500)
  })

  test('a page past the PDF’s last is refused (PDFium counts its pages, kept per version): nobody "reaches" page 10,000 of a 1-page PDF', async () => {
    const onePage = await uploadPdf(server, owner)
    const links = await json(await server.call('GET', `/api/files/${onePage.id}/links`, { token: owner.token }))
    const single = { id: onePage.id, path: sharePathOf(onePage), linkId: links.data[0].id }
    const { token } = await readerVisit(single)
    now += 60_000
    const beyond = await reading(single.path, { visit: token, pages: [{ page: 10_000, ms: 1000 }] })
    expect(beyond.status).toBe(400)
    expect(await beyond.text()).toBe("page 10000 is past the document's last page (1)")
    expect((await reading(single.path, { visit: token, pages: [{ page: 1, ms: 1000 }] })).status).toBe(204)
    const stats = await json(await server.call('GET', `/api/files/${single.id}/analytics`, { token: owner.token }))
    expect(stats.data.pages.map((entry: { page: number }) => entry.page)).toEqual([1])
    const counted = await server.ctx.db.hot.get('SELECT pages FROM pdf_pages WHERE blob_key = (SELECT blob_key FROM files WHERE id = ?)', [
      single.id,
    ])
    expect(counted).toEqual([1])
  })

  test('refused, and nothing changes: another link, another visit, forged or expired tokens, out-of-range fields, odd bodies', async () => {
    const file = await newFile()
    const other = await newLink(file)
    const mine = await readerVisit(file)
    const theirs = await readerVisit(other)
    now += 120_000
    expect((await reading(file.path, { visit: mine.token, pages: [{ page: 1, ms: 1000 }] })).status).toBe(204)
    const before = { pages: await pagesOf(mine.visitId), theirs: await pagesOf(theirs.visitId), rows: await visitsOf(file.id) }

    const [id, expiry, mac] = mine.token.split('.') as [string, string, string]
    const forgedMac = `${id}.${expiry}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`
    const laterExpiry = `${id}.${Number(expiry) + 1000}.${mac}`
    const otherVisit = `${theirs.visitId}.${expiry}.${mac}`
    const page = (entry: Record<string, unknown>) => ({ visit: mine.token, pages: [entry] })
    const cases: [string, Response, number][] = [
      ['their token on my link', await reading(file.path, { visit: theirs.token, pages: [{ page: 1, ms: 1000 }] }), 403],
      ['my token on their link', await reading(other.path, { visit: mine.token, pages: [{ page: 1, ms: 1000 }] }), 403],
      ['forged signature', await reading(file.path, { visit: forgedMac, pages: [{ page: 1, ms: 1000 }] }), 403],
      ['changed expiry', await reading(file.path, { visit: laterExpiry, pages: [{ page: 1, ms: 1000 }] }), 403],
      ['another visit id', await reading(file.path, { visit: otherVisit, pages: [{ page: 1, ms: 1000 }] }), 403],
      ['no token', await reading(file.path, { pages: [{ page: 1, ms: 1000 }] }), 403],
      ['page 0', await reading(file.path, page({ page: 0, ms: 10 })), 400],
      ['page 10001', await reading(file.path, page({ page: 10_001, ms: 10 })), 400],
      ['page 5 of a 4-page PDF', await reading(file.path, page({ page: 5, ms: 10 })), 400],
      ['page 1.5', await reading(file.path, page({ page: 1.5, ms: 10 })), 400],
      ['ms -1', await reading(file.path, page({ page: 1, ms: -1 })), 400],
      ['ms 600001', await reading(file.path, page({ page: 1, ms: 600_001 })), 400],
      ['ms as text', await reading(file.path, page({ page: 1, ms: '10' })), 400],
      ['an extra field', await reading(file.path, page({ page: 1, ms: 10, user: 'x' })), 400],
      [
        '51 pages',
        await reading(file.path, { visit: mine.token, pages: Array.from({ length: 51 }, (_, i) => ({ page: i + 1, ms: 1 })) }),
        400,
      ],
      [
        'a page twice',
        await reading(file.path, {
          visit: mine.token,
          pages: [
            { page: 2, ms: 1 },
            { page: 2, ms: 1 },
          ],
        }),
        400,
      ],
      ['no pages', await reading(file.path, { visit: mine.token, pages: [] }), 400],
      ['an unknown top-level field', await reading(file.path, { visit: mine.token, pages: [{ page: 1, ms: 1 }], admin: true }), 400],
      ['not JSON', await reading(file.path, 'visit=1'), 400],
      ['an array', await reading(file.path, '[]'), 400],
      ['more time than since the visit', await reading(file.path, page({ page: 4, ms: 200_000 })), 400],
      ['over 8 KiB', await reading(file.path, { visit: mine.token, pages: [{ page: 1, ms: 1 }], pad: 'x'.repeat(9000) }), 413],
      [
        'a form body',
        await reading(file.path, { visit: mine.token, pages: [{ page: 1, ms: 1 }] }, 'application/x-www-form-urlencoded'),
        415,
      ],
      ['an unknown link', await reading('/s/doesnotexist123', { visit: mine.token, pages: [{ page: 1, ms: 1 }] }), 404],
    ]
    for (const [name, response, status] of cases) expect(`${name}: ${response.status}`).toBe(`${name}: ${status}`)
    expect(await pagesOf(mine.visitId)).toEqual(before.pages)
    expect(await pagesOf(theirs.visitId)).toEqual(before.theirs)
    expect(await visitsOf(file.id)).toEqual(before.rows)

    // An expired token: 12 hours after the page.
    now += 12 * 60 * 60 * 1000
    expect((await reading(file.path, { visit: mine.token, pages: [{ page: 1, ms: 1000 }] })).status).toBe(403)
    expect(await pagesOf(mine.visitId)).toEqual(before.pages)
  })

  test("the reader who used a limited link's last view keeps reporting with its grant; without the grant it is refused", async () => {
    const file = await newFile()
    const limited = await server.call('POST', `/api/files/${file.id}/links`, {
      token: owner.token,
      body: JSON.stringify({ maxViews: 1 }),
      headers: { 'content-type': 'application/json' },
    })
    const path = sharePathOf({ shareUrl: (await json(limited)).data.url })
    const page = await open(path)
    expect(page.status).toBe(200)
    const cookies = page.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ')
    expect(cookies).toContain('pdfshare_grant=')
    const token = (await tokenOf(page))!
    expect((await open(path)).status).toBe(410) // used up for anyone new
    const batch = JSON.stringify({ visit: token, pages: [{ page: 1, ms: 100 }] })
    expect((await call('POST', `${path}/reading`, { body: batch, headers: { 'content-type': 'text/plain' } })).status).toBe(410)
    const withGrant = await call('POST', `${path}/reading`, { body: batch, headers: { 'content-type': 'text/plain', cookie: cookies } })
    expect(withGrant.status).toBe(204)
    expect(await pagesOf(token.split('.')[0]!)).toEqual([{ visitId: token.split('.')[0]!, page: 1, ms: 100 }])
  })

  test('a page adds up to at most 6 hours in one visit', async () => {
    const file = await newFile()
    const { token, visitId } = await readerVisit(file)
    now += 8 * 60 * 60 * 1000
    for (let i = 0; i < 45; i++) {
      expect((await reading(file.path, { visit: token, pages: [{ page: 1, ms: 600_000 }] })).status).toBe(204)
    }
    expect((await pagesOf(visitId))[0]!.ms).toBe(6 * 60 * 60 * 1000)
    expect((await visitsOf(file.id))[0]!.readingMs).toBe(6 * 60 * 60 * 1000)
  })

  test('at most 60 batches a minute per visit (429), then again in the next minute', async () => {
    const file = await newFile()
    const { token, visitId } = await readerVisit(file)
    now = now - (now % 60_000) + 60_000 + 1000 // the start of a rate-limit window, a second after the page
    const statuses: number[] = []
    for (let i = 0; i < 61; i++) statuses.push((await reading(file.path, { visit: token, pages: [{ page: 1, ms: 10 }] })).status)
    expect(statuses.filter((status) => status === 204)).toHaveLength(60)
    expect(statuses.at(-1)).toBe(429)
    expect((await pagesOf(visitId))[0]!.ms).toBe(600)
    now += 60_000
    expect((await reading(file.path, { visit: token, pages: [{ page: 1, ms: 10 }] })).status).toBe(204)
  })
})

describe('downloads', () => {
  const download = (path: string, headers: Record<string, string> = {}) =>
    call('GET', `${path}/download`, { headers: { 'user-agent': FIREFOX, ...headers } })

  test('after the page: the same visit is marked downloaded, once', async () => {
    const file = await newFile()
    const { cookie, visitId } = await readerVisit(file, { 'x-forwarded-for': '192.0.2.80' })
    for (let i = 0; i < 2; i++) {
      const response = await download(file.path, { cookie, 'x-forwarded-for': '192.0.2.80' })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    const rows = await visitsOf(file.id)
    expect(rows.map((row) => [row.id, row.viewed, row.downloaded])).toEqual([[visitId, true, true]])
  })

  test('without a page visit: a visit of its own (viewed false) with a cookie; repeats and Range continuations are not counted', async () => {
    const file = await newFile()
    const reader = { 'x-forwarded-for': '192.0.2.81', referer: 'https://mail.example.org/inbox' }
    const first = await download(file.path, reader)
    expect(first.status).toBe(200)
    const cookie = visitCookie(first)!
    expect(cookie).toBeDefined()
    await download(file.path, { ...reader, cookie })
    await download(file.path, reader) // no cookie, the same reader within 30 minutes
    expect((await download(file.path, { 'x-forwarded-for': '192.0.2.82', range: 'bytes=100-' })).status).toBe(206)
    await download(file.path, { 'user-agent': SLACKBOT, 'x-forwarded-for': '192.0.2.83' })
    const rows = await visitsOf(file.id)
    expect(rows.map((row) => [row.viewed, row.downloaded, row.referrerHost])).toEqual([[false, true, 'mail.example.org']])
    // A Range from byte 0 starts a download.
    await download(file.path, { 'x-forwarded-for': '192.0.2.84', range: 'bytes=0-99' })
    expect(await visitsOf(file.id)).toHaveLength(2)
  })

  test('one address with a new User-Agent each time adds at most the per-address bound of downloads, and events for those only', async () => {
    const hooked = await server.user('download-bound')
    await addWebhook(hooked, ['link.downloaded'])
    const file = await newFile(hooked)
    const before = (await deliveries('link.downloaded')).length
    for (let i = 0; i < 30; i++) {
      const response = await download(file.path, {
        'user-agent': browserNumber(`dl-${i}`),
        'x-forwarded-for': '192.0.2.85',
        range: 'bytes=0-0',
      })
      expect(response.status).toBe(206) // every one is served: the bound is on what is counted
    }
    const rows = await visitsOf(file.id)
    expect(rows).toHaveLength(server.config.maxViewsPerAddress)
    expect(new Set(rows.map((row) => row.visitor)).size).toBe(server.config.maxViewsPerAddress)
    expect((await deliveries('link.downloaded')).length - before).toBe(server.config.maxViewsPerAddress)
    // The bound is per address: another one still counts.
    await download(file.path, { 'x-forwarded-for': '192.0.2.86' })
    expect(await visitsOf(file.id)).toHaveLength(server.config.maxViewsPerAddress + 1)
  })

  test('another site’s <img>, script or fetch of a download is not counted; a navigation is', async () => {
    const file = await newFile()
    const crossSite = { 'sec-fetch-site': 'cross-site' }
    await download(file.path, { ...crossSite, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' })
    await download(file.path, { ...crossSite, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' })
    await download(file.path, { ...crossSite, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' })
    expect(await visitsOf(file.id)).toHaveLength(0)
    const navigation = { 'sec-fetch-mode': 'navigate', 'x-forwarded-for': nextAddress() }
    await download(file.path, { ...navigation, 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'document' })
    await download(file.path, { ...navigation, ...crossSite, 'sec-fetch-dest': 'empty', 'x-forwarded-for': nextAddress() }) // <a download>
    expect(await visitsOf(file.id)).toHaveLength(2)
  })
})

describe('the analytics API', () => {
  test('numbers of a scripted set of visits: totals, every day, reach, referrers, devices, median', async () => {
    const file = await newFile()
    const other = await newLink(file)
    const today = Date.UTC(2026, 5, 10, 9, 0, 0)
    now = today - 2 * DAY
    const a = await readerVisit(file, { referer: 'https://news.example.com/a' })
    const b = await readerVisit(other, { 'user-agent': SAFARI_PHONE })
    now += 600_000
    await reading(file.path, {
      visit: a.token,
      pages: [
        { page: 1, ms: 4000 },
        { page: 2, ms: 2000 },
      ],
    })
    await reading(other.path, { visit: b.token, pages: [{ page: 1, ms: 1000 }] })
    now = today
    const c = await readerVisit(file, { 'user-agent': TABLET, referer: 'https://news.example.com/b' })
    expect(await tokenOf(await open(file.path, { 'sec-gpc': '1', referer: 'https://blog.example.net/' }))).toBeUndefined()
    now += 600_000
    await reading(file.path, {
      visit: c.token,
      pages: [1, 2, 3].map((page) => ({ page, ms: 1000 })),
    })
    await call('GET', `${file.path}/download`, { headers: { 'user-agent': TABLET, cookie: c.cookie } })

    const from = new Date(today - 3 * DAY).toISOString().slice(0, 10)
    const to = new Date(today).toISOString().slice(0, 10)
    const { data } = await analytics(`/api/files/${file.id}/analytics?from=${from}&to=${to}`)
    expect(data.from).toBe(from)
    expect(data.to).toBe(to)
    expect(data.viewsPerDay.map((day: { views: number }) => day.views)).toEqual([0, 2, 0, 2])
    expect(data.viewsPerDay[1]).toEqual({ day: new Date(today - 2 * DAY).toISOString().slice(0, 10), views: 2, uniqueVisitors: 2 })
    expect(data.totals).toEqual({ views: 4, uniqueVisitors: 4, downloads: 1, medianReadingSeconds: 3 })
    expect(data.pages).toEqual([
      { page: 1, seconds: 6, visitors: 3 },
      { page: 2, seconds: 3, visitors: 2 },
      { page: 3, seconds: 1, visitors: 1 },
    ])
    expect(data.referrers).toEqual([
      { host: 'news.example.com', views: 2 },
      { host: '', views: 1 },
      { host: 'blog.example.net', views: 1 },
    ])
    expect(data.devices).toEqual({ phone: 1, tablet: 1, desktop: 2 })

    // One link only; and the default range: the 30 days up to today.
    const link = (await analytics(`/api/links/${other.linkId}/analytics?from=${from}&to=${to}`)).data
    expect(link.totals).toEqual({ views: 1, uniqueVisitors: 1, downloads: 0, medianReadingSeconds: 1 })
    expect(link.pages).toEqual([{ page: 1, seconds: 1, visitors: 1 }])
    const recent = (await analytics(`/api/files/${file.id}/analytics`)).data
    expect(recent.viewsPerDay).toHaveLength(30)
    expect(recent.to).toBe(to)
    expect(recent.totals.views).toBe(4)
  })

  test('top referrers: the 10 with most views, most first', async () => {
    const file = await newFile()
    for (let host = 1; host <= 12; host++) {
      for (let i = 0; i < (host === 12 ? 5 : host <= 2 ? 1 : 2); i++) await open(file.path, { referer: `https://site${host}.example/` })
    }
    const { data } = await analytics(`/api/files/${file.id}/analytics`)
    expect(data.referrers).toHaveLength(10)
    expect(data.referrers[0]).toEqual({ host: 'site12.example', views: 5 })
    expect(data.referrers.map((row: { host: string }) => row.host)).not.toContain('site1.example')
    expect(data.referrers.map((row: { host: string }) => row.host)).not.toContain('site2.example')
  })

  test('bad ranges are 400s', async () => {
    const file = await newFile()
    for (const query of ['from=2026-05-02&to=2026-05-01', 'from=2025-01-01&to=2026-05-01', 'from=2026-02-30', 'to=yesterday']) {
      const response = await call('GET', `/api/files/${file.id}/analytics?${query}`, { token: owner.token })
      expect(`${query}: ${response.status}`).toBe(`${query}: 400`)
    }
  })

  test('the visits list: newest first, paged, without the visitor key; the CSV has every visit', async () => {
    const file = await newFile()
    for (let i = 0; i < 5; i++) {
      await open(file.path, { referer: `https://r${i}.example/` })
      now += 1000
    }
    const seen: { referrerHost: string }[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await analytics(`/api/files/${file.id}/visits?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.data)
      cursor = page.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen.map((visit) => visit.referrerHost)).toEqual(['r4.example', 'r3.example', 'r2.example', 'r1.example', 'r0.example'])
    expect(Object.keys(seen[0]!).sort()).toEqual(
      ['id', 'linkId', 'at', 'referrerHost', 'device', 'viewed', 'downloaded', 'readingSeconds', 'tracked', 'reader'].sort(),
    )
    expect(seen.every((visit) => (visit as { reader?: unknown }).reader === null)).toBe(true) // an open link keeps no address
    expect(JSON.stringify(seen)).not.toContain((await visitsOf(file.id))[0]!.visitor)
    const byLink = await analytics(`/api/links/${file.linkId}/visits`)
    expect(byLink.data).toHaveLength(5)
    expect((await call('GET', `/api/files/${file.id}/visits?limit=0`, { token: owner.token })).status).toBe(400)
    expect((await call('GET', `/api/files/${file.id}/visits?cursor=abc`, { token: owner.token })).status).toBe(400)

    const csv = await call('GET', `/api/files/${file.id}/visits.csv`, { token: owner.token })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const lines = (await csv.text()).trimEnd().split('\r\n')
    expect(lines[0]).toBe('id,linkId,at,referrerHost,device,viewed,downloaded,readingSeconds,tracked,reader')
    expect(lines).toHaveLength(6)
    expect(lines[1]).toEndWith(',r4.example,desktop,true,false,0,true,')
    // The link's own CSV: every visit here came through the default link, so the same lines.
    const linkCsv = await call('GET', `/api/links/${file.linkId}/visits.csv`, { token: owner.token })
    expect(linkCsv.headers.get('content-disposition')).toBe(`attachment; filename="visits-${file.linkId}.csv"`)
    expect((await linkCsv.text()).trimEnd().split('\r\n')).toEqual(lines)
    const other = await newLink(file)
    expect(
      (await (await call('GET', `/api/links/${other.linkId}/visits.csv`, { token: owner.token })).text()).trimEnd().split('\r\n'),
    ).toEqual([lines[0]!])
  })

  test("another user's file or link answers 404, like a missing one", async () => {
    const theirs = await newFile(stranger)
    for (const path of [
      `/api/files/${theirs.id}/analytics`,
      `/api/links/${theirs.linkId}/analytics`,
      `/api/files/${theirs.id}/visits`,
      `/api/links/${theirs.linkId}/visits`,
      `/api/files/${theirs.id}/visits.csv`,
      `/api/links/${theirs.linkId}/visits.csv`,
      '/api/files/nosuchfile/analytics',
    ]) {
      const response = await call('GET', path, { token: owner.token })
      expect(`${path}: ${response.status}`).toBe(`${path}: 404`)
    }
    expect((await call('GET', `/api/files/${theirs.id}/analytics`)).status).toBe(401)
    expect((await call('GET', `/api/files/${theirs.id}/analytics`, { token: stranger.token })).status).toBe(200)
  })
})

describe('retention', () => {
  test('visits older than the retention are deleted with their pages; newer ones stay', async () => {
    const file = await newFile()
    const old = await readerVisit(file)
    now += 60_000
    await reading(file.path, { visit: old.token, pages: [{ page: 1, ms: 1000 }] })
    now += 366 * DAY
    const recent = await readerVisit(file)
    const deleted = await pruneVisits({ ...server.ctx, now: () => now })
    expect(deleted).toBeGreaterThanOrEqual(1)
    expect((await visitsOf(file.id)).map((row) => row.id)).toEqual([recent.visitId])
    expect(await pagesOf(old.visitId)).toEqual([])
  })

  test('PDFSHARE_ANALYTICS_RETENTION=0 records no visits, gives no reading token and sends no reader events', async () => {
    const off: TestServer = await startTestApp({ PDFSHARE_ANALYTICS_RETENTION: '0' })
    const user = await off.user('off')
    await off.ctx.db.orm.insert(webhooks).values({
      id: randomId(),
      ownerId: user.id,
      url: 'https://hooks.example.test/in',
      events: JSON.stringify(['link.viewed', 'link.downloaded']),
      secret: 'whsec_dGVzdA==',
      createdAt: Date.now(),
    })
    const file = await uploadPdf(off, user)
    const page = await off.call('GET', sharePathOf(file), { headers: { 'user-agent': FIREFOX } })
    expect(await page.text()).not.toContain('data-visit')
    expect(visitCookie(page)).toBeUndefined()
    await off.call('GET', `${sharePathOf(file)}/download`, { headers: { 'user-agent': SAFARI_PHONE } })
    expect((await json(await off.call('GET', `/api/files/${file.id}`, { token: user.token }))).data.views).toBe(1)
    expect(await off.ctx.db.orm.select().from(visits)).toEqual([])
    expect(await off.ctx.db.orm.select().from(webhookDeliveries)).toEqual([])
  })
})

describe('reader webhook events (the outbox)', () => {
  test('link.viewed with each recorded visit, link.downloaded with each recorded download, and none otherwise', async () => {
    const hooked = await server.user('hooked')
    await addWebhook(hooked, ['link.viewed', 'link.downloaded'])
    const file = await newFile(hooked)
    const viewedBefore = (await deliveries('link.viewed')).length
    const downloadedBefore = (await deliveries('link.downloaded')).length

    const reader = { 'x-forwarded-for': '192.0.2.90', referer: 'https://chat.example.com/room' }
    const { visitId, cookie } = await readerVisit(file, reader)
    await open(file.path, reader) // a repeat: no visit, no event
    await open(file.path, { 'user-agent': SLACKBOT })
    const viewed = (await deliveries('link.viewed')).slice(viewedBefore)
    expect(viewed).toHaveLength(1)
    expect(viewed[0]).toEqual({
      type: 'link.viewed',
      timestamp: new Date(now).toISOString(),
      data: {
        link: { id: file.linkId, fileId: file.id, url: `https://pdf.example.test/base${file.path}`, label: '' },
        visit: { id: visitId, at: new Date(now).toISOString(), referrerHost: 'chat.example.com', device: 'desktop' },
      },
    })

    for (let i = 0; i < 2; i++) await call('GET', `${file.path}/download`, { headers: { 'user-agent': FIREFOX, cookie, ...reader } })
    await call('GET', `${file.path}/download`, { headers: { 'user-agent': FIREFOX, range: 'bytes=500-' } })
    const downloaded = (await deliveries('link.downloaded')).slice(downloadedBefore)
    expect(downloaded).toHaveLength(1)
    expect(downloaded[0].data.visit.id).toBe(visitId)

    // The owner's other files' readers are not anyone else's events; another owner's webhook gets nothing.
    const unhooked = await newFile()
    await open(unhooked.path)
    expect((await deliveries('link.viewed')).slice(viewedBefore)).toHaveLength(1)
  })
})
