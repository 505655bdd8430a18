import { describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { markSweepJob } from '../../src/core/share/visit-marks'
import { eventually } from '../support/eventually'
import { BASE, form, json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { browserNumber, FIREFOX, SAFARI_PHONE } from '../support/user-agents'

// X-Forwarded-For is trusted for one hop, so tests can stand for visitors at different addresses.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1' })
const owner = await server.user('owner')

async function newFile() {
  const file = await uploadPdf(server, owner)
  return { id: file.id, path: sharePathOf(file) }
}
const views = async (id: string) => (await json(await server.call('GET', `/api/files/${id}`, { token: owner.token }))).data.views as number
const visit = (path: string, headers: Record<string, string> = {}, method = 'GET') => server.call(method, path, { headers })

describe('views', () => {
  test('a human visit counts once and sets a 30-minute cookie scoped to the page', async () => {
    const file = await newFile()
    const response = await visit(file.path, { 'user-agent': FIREFOX })
    expect(response.status).toBe(200)
    expect(await views(file.id)).toBe(1)
    const cookie = response.headers.get('set-cookie')!
    // Signed: its expiry and an HMAC of the link and the expiry, so it cannot be made by hand.
    expect(cookie).toMatch(/^pdfshare_seen=\d{13}\.[A-Za-z0-9_-]{43};/)
    expect(cookie).toContain('Max-Age=1800')
    expect(cookie).toContain(`Path=/base${file.path}`)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('Secure') // the public URL is https
  })

  test('a repeat visit with the cookie is not counted', async () => {
    const file = await newFile()
    const first = await visit(file.path, { 'user-agent': FIREFOX })
    const seen = first.headers.get('set-cookie')!.split(';')[0]!
    await visit(file.path, { 'user-agent': SAFARI_PHONE, cookie: `other=1; ${seen}` })
    expect(await views(file.id)).toBe(1)
  })

  test('a hand-made, expired or other link’s seen cookie is no repeat: the visit counts', async () => {
    const file = await newFile()
    const other = await newFile()
    const otherSeen = (await visit(other.path, { 'user-agent': FIREFOX })).headers.get('set-cookie')!.split(';')[0]!
    const [name, value] = otherSeen.split('=') as [string, string]
    const [expiry, mac] = value.split('.') as [string, string]
    const forged = ['pdfshare_seen=1', otherSeen, `${name}=${Number(expiry) + 1}.${mac}`, `${name}=${Date.now() - 1000}.${mac}`]
    for (const [i, cookie] of forged.entries()) {
      await visit(file.path, { 'user-agent': FIREFOX, 'x-forwarded-for': `198.51.100.${i + 1}`, cookie })
    }
    expect(await views(file.id)).toBe(forged.length)
  })

  test('without the cookie, the same IP and User-Agent within 30 minutes is a repeat; after 30 minutes it counts again', async () => {
    const file = await newFile()
    let now = Date.UTC(2026, 10, 22, 12, 0, 0)
    const app = createApp({ ...server.ctx, now: () => now })
    const visitAt = () => app.handle(new Request(`${BASE}${file.path}`, { headers: { 'user-agent': FIREFOX } }))
    await visitAt()
    now += 29 * 60 * 1000
    await visitAt()
    expect(await views(file.id)).toBe(1)
    now += 2 * 60 * 1000
    const again = await visitAt()
    expect(again.headers.get('set-cookie')).toMatch(/^pdfshare_seen=\d+\./)
    expect(await views(file.id)).toBe(2)
    // A different browser on the same address is another visitor.
    await app.handle(new Request(`${BASE}${file.path}`, { headers: { 'user-agent': SAFARI_PHONE } }))
    expect(await views(file.id)).toBe(3)
  })

  test('HEAD, prefetches and previews are not counted', async () => {
    const file = await newFile()
    expect((await visit(file.path, { 'user-agent': FIREFOX }, 'HEAD')).status).toBe(200)
    const marks: Record<string, string>[] = [
      { 'sec-purpose': 'prefetch' },
      { 'sec-purpose': 'prefetch;prerender' },
      { purpose: 'prefetch' },
      { 'x-moz': 'prefetch' },
      { 'x-purpose': 'preview' },
    ]
    for (const headers of marks) {
      expect((await visit(file.path, { 'user-agent': FIREFOX, ...headers })).status).toBe(200)
    }
    expect(await views(file.id)).toBe(0)
  })

  test('requests without a User-Agent are not counted', async () => {
    const file = await newFile()
    await visit(file.path, {})
    await visit(file.path, { 'user-agent': '   ' })
    expect(await views(file.id)).toBe(0)
  })

  // Real User-Agent strings of crawlers, link unfurlers and tools.
  const bots = [
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Slack-ImgProxy (+https://api.slack.com/robots)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'Twitterbot/1.0',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'WhatsApp/2.23.20.0',
    'TelegramBot (like TwitterBot)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    'curl/8.5.0',
    'python-requests/2.32.3',
    'Wget/1.21.4',
  ]
  test('known crawlers, link unfurlers and tools are not counted', async () => {
    const file = await newFile()
    for (const userAgent of bots) expect((await visit(file.path, { 'user-agent': userAgent })).status).toBe(200)
    expect(await views(file.id)).toBe(0)
    await visit(file.path, { 'user-agent': FIREFOX })
    expect(await views(file.id)).toBe(1)
  })

  test('fetching the bytes, the download or the preview, and any API call, are not views', async () => {
    const file = await newFile()
    for (const suffix of ['/file', '/download', '/preview.png']) await visit(file.path + suffix, { 'user-agent': FIREFOX })
    await server.call('GET', `/api/files/${file.id}/content`, { token: owner.token })
    await server.call('PUT', `/api/files/${file.id}`, {
      token: owner.token,
      body: JSON.stringify({ title: 'x' }),
      headers: { 'content-type': 'application/json' },
    })
    await server.call('PUT', `/api/files/${file.id}`, { token: owner.token, body: form({ bytes: makePdf({ text: () => 'v2' }) }) })
    expect(await views(file.id)).toBe(0)
  })

  test('views survive a replacement and never move updatedAt', async () => {
    const file = await newFile()
    const before = (await json(await server.call('GET', `/api/files/${file.id}`, { token: owner.token }))).data
    await visit(file.path, { 'user-agent': FIREFOX })
    const after = (await json(await server.call('GET', `/api/files/${file.id}`, { token: owner.token }))).data
    expect(after.views).toBe(1)
    expect(after.updatedAt).toBe(before.updatedAt)
  })

  test('N concurrent distinct visitors add exactly N', async () => {
    const file = await newFile()
    const n = 60
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) => visit(file.path, { 'user-agent': browserNumber(i), 'x-forwarded-for': `198.51.100.${i}` })),
    )
    expect(responses.every((r) => r.status === 200)).toBe(true)
    expect(await views(file.id)).toBe(n)
  })

  test('one address rotating User-Agents adds at most PDFSHARE_MAX_VIEWS_PER_ADDRESS views to a link per 30 minutes', async () => {
    const capped = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_MAX_VIEWS_PER_ADDRESS: '5' })
    const owner = await capped.user()
    const upload = async () => {
      const file = await uploadPdf(capped, owner)
      return { id: file.id, path: sharePathOf(file) }
    }
    const viewsOf = async (id: string) =>
      (await json(await capped.call('GET', `/api/files/${id}`, { token: owner.token }))).data.views as number
    let now = Date.UTC(2026, 10, 22, 12, 0, 0)
    const app = createApp({ ...capped.ctx, now: () => now })
    const visitAs = (path: string, ip: string, browser: number) =>
      app.handle(new Request(`${BASE}${path}`, { headers: { 'user-agent': browserNumber(browser), 'x-forwarded-for': ip } }))
    const [a, b, c] = [await upload(), await upload(), await upload()]

    for (let i = 0; i < 20; i++) expect((await visitAs(a.path, '203.0.113.5', i)).status).toBe(200)
    expect(await viewsOf(a.id)).toBe(5)
    // IPv6: one /64 is one address, whichever of its addresses is used.
    for (let i = 0; i < 20; i++) await visitAs(a.path, `2001:db8:9:9::${(i + 1).toString(16)}`, i)
    expect(await viewsOf(a.id)).toBe(10)
    // Another address, and another file from the same address, are not affected.
    await visitAs(a.path, '203.0.113.6', 0)
    await visitAs(b.path, '203.0.113.5', 99)
    expect([await viewsOf(a.id), await viewsOf(b.id)]).toEqual([11, 1])
    // Concurrent visits in one group commit respect the bound too.
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => visitAs(c.path, '192.0.2.44', i).then((r) => r.status)))
    expect(statuses.every((status) => status === 200)).toBe(true)
    expect(await viewsOf(c.id)).toBe(5)
    // The window slides: 30 minutes after its first counted views the address may add views again.
    now += 31 * 60 * 1000
    await visitAs(a.path, '203.0.113.5', 50)
    expect(await viewsOf(a.id)).toBe(12)
  })

  test('the server deletes expired view marks on a timer, also when no view comes after them', async () => {
    const file = await newFile()
    let now = Date.UTC(2026, 10, 23, 9, 0, 0)
    const ctx = { ...server.ctx, now: () => now }
    await createApp(ctx).handle(
      new Request(`${BASE}${file.path}`, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': '192.0.2.200' } }),
    )
    const marksOfFile = async () =>
      (await server.ctx.db.hot.get('SELECT count(*) FROM view_marks WHERE link_id IN (SELECT id FROM links WHERE file_id = ?)', [
        file.id,
      ]))![0]
    expect(Number(await marksOfFile())).toBe(1)
    const sweeps = ctx.jobs.start(markSweepJob(ctx, 20))
    try {
      await Bun.sleep(100)
      expect(Number(await marksOfFile())).toBe(1) // still within its 30 minutes
      now += 30 * 60 * 1000
      await eventually(async () => expect(Number(await marksOfFile())).toBe(0))
    } finally {
      await sweeps.stop()
    }
  })
})
