import { describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import type { AnalyticsDto, VisitDto } from '../../src/routes/analytics/model'
import { formatDuration } from '../../viewer/src/dashboard/format'
import { browserNumber, SAFARI_PHONE } from '../support/user-agents'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, SCREENSHOTS, watchedPage, type Watched } from './browser'

// A file's Analytics panel in Chromium, against the compiled binary's real analytics API. Visitors are told
// apart by User-Agent and address: the binary trusts one proxy hop, so each request names its own address.
const app = useBinaryApp({ name: 'analytics', user: 'ines', env: { PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_TRUST_PROXY: '1' } })
const { json } = app

type Owned = { id: string; shareUrl: string; filename: string }
type Link = { id: string; url: string; label: string }

async function upload(name: string, pages: number): Promise<Owned> {
  const form = new FormData()
  form.append('file', new Blob([makePdf({ pages, text: (p) => `${name}, page ${p}` })], { type: 'application/pdf' }), name)
  return json<Owned>('/files/upload', { method: 'POST', body: form })
}

/** The link as the binary serves it here (the public URL is localhost, maybe another port). */
const served = (url: string) => `${app.server.url}${new URL(url).pathname}`

/** A counted view by a reader of its own: a browser User-Agent and an address of its own. */
async function view(url: string, reader: number, headers: Record<string, string> = {}) {
  const response = await fetch(served(url), {
    headers: { 'user-agent': browserNumber(reader), 'x-forwarded-for': `198.51.100.${reader}`, ...headers },
  })
  expect(response.status).toBe(200)
  return { html: await response.text(), cookie: response.headers.get('set-cookie') ?? '' }
}

/** The UTC days the panel asks for when "Last N days" is chosen. */
function lastDays(days: number) {
  const now = Date.now()
  return { from: new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10), to: new Date(now).toISOString().slice(0, 10) }
}
const analytics = (path: string, days: number) => {
  const { from, to } = lastDays(days)
  return json<AnalyticsDto>(`${path}/analytics?from=${from}&to=${to}`)
}

const unexpected = (watched: Watched) => watched.consoleErrors

/** Chromium as a person's browser (the headless one says so in its User-Agent, and is not counted). */
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36'

/** Signs in with the API token and opens the file's page at its Analytics panel. */
async function openFile(page: Page, fileId: string) {
  await app.signIn(page)
  await page.locator('tbody tr').first().waitFor()
  await page.goto(`${app.server.url}/app#/files/${fileId}`)
  await page.getByRole('heading', { name: 'Analytics' }).waitFor()
}

const panel = (page: Page) => page.locator('section.analytics')
/** The totals as the panel shows them: { Views: '5', … }. */
async function totals(page: Page): Promise<Record<string, string>> {
  const pairs = await panel(page)
    .locator('.totals > div')
    .evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent ?? '', item.querySelector('dd')?.textContent ?? '']))
  return Object.fromEntries(pairs)
}
/** Each bar of the chart: its day and its number of views. */
const bars = (page: Page) =>
  panel(page)
    .locator('rect.chart-bar')
    .evaluateAll((rects) => rects.map((rect) => ({ day: rect.getAttribute('data-day'), views: Number(rect.getAttribute('data-views')) })))
/** The rows of a table in the panel, as their cells' text. */
const rows = (page: Page, selector: string) =>
  panel(page)
    .locator(`${selector} tbody tr`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => (cell.textContent ?? '').trim())))

describe('the Analytics panel', () => {
  test('views of two links: totals, 7 bars that match the API, the table, referrers, devices, visits, one link, CSV', async () => {
    const file = await upload('report.pdf', 3)
    const newsletter = await json<Link>(`/files/${file.id}/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Newsletter' }),
    })
    // Three readers on the default link (one from a news site, one on a phone), two on the newsletter's.
    await view(file.shareUrl, 1, { referer: 'https://news.example.org/a/post?utm=1' })
    await view(file.shareUrl, 2, { 'user-agent': SAFARI_PHONE })
    const third = await view(file.shareUrl, 3)
    await view(newsletter.url, 4)
    await view(newsletter.url, 5)
    // A repeat by reader 3 and a link-preview bot are not counted.
    await view(file.shareUrl, 3)
    await view(file.shareUrl, 6, { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' })
    // Reader 3 downloads the PDF: their own visit is marked (the visit cookie names it), no new visit.
    await json(`/files/${file.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ allowDownload: true }),
    })
    const visitCookie = /pdfshare_visit=[^;]+/.exec(third.cookie)?.[0]
    expect(visitCookie).toBeDefined()
    const downloaded = await fetch(`${served(file.shareUrl)}/download`, {
      headers: { 'user-agent': browserNumber(3), 'x-forwarded-for': '198.51.100.3', cookie: visitCookie! },
    })
    expect(downloaded.status).toBe(200)
    await downloaded.arrayBuffer()
    await eventually(async () => expect((await analytics(`/files/${file.id}`, 7)).totals).toMatchObject({ views: 5, downloads: 1 }))
    const week = await analytics(`/files/${file.id}`, 7)

    const watched = await watchedPage(app.browser)
    const { page } = watched
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url })
    await openFile(page, file.id)
    await panel(page).getByLabel('Period').selectOption('7')
    await eventually(async () => expect((await bars(page)).length).toBe(7))
    // One bar a day, each the API's number; today's is the five views.
    expect(await bars(page)).toEqual(week.viewsPerDay.map((day) => ({ day: day.day, views: day.views })))
    expect((await bars(page)).at(-1)?.views).toBe(5)
    expect(await panel(page).getByRole('img').getAttribute('aria-label')).toContain('5 views in all')
    expect(await totals(page)).toEqual({
      Views: '5',
      'Unique visitors': String(week.totals.uniqueVisitors),
      Downloads: '1',
      'Median reading time': '—',
    })
    expect(week.totals.uniqueVisitors).toBe(5)

    // The same numbers as a table, one button away.
    expect(await panel(page).locator('.chart-table table').count()).toBe(0)
    await panel(page).getByRole('button', { name: 'Show as table' }).click()
    const table = await rows(page, '.chart-table')
    expect(table.length).toBe(7)
    expect(table.map((cells) => [Number(cells[1]), Number(cells[2])])).toEqual(
      week.viewsPerDay.map((day) => [day.views, day.uniqueVisitors]),
    )
    expect(await panel(page).getByRole('button', { name: 'Hide the table' }).getAttribute('aria-expanded')).toBe('true')

    // Referrers and devices.
    const referrers = await rows(page, 'table:has(caption:text("Top referrers"))')
    expect(referrers).toContainEqual(['news.example.org', '1'])
    expect(referrers).toContainEqual(['Direct or unknown', '4'])
    expect(await rows(page, 'table:has(caption:text("Views by device"))')).toEqual([
      ['Desktop', '4'],
      ['Phone', '1'],
      ['Tablet', '0'],
    ])

    // The visits, newest first, with the link each came through.
    const visits = await rows(page, '.visits-table')
    expect(visits.length).toBe(5)
    expect(visits.map((cells) => cells[1]).sort()).toEqual(['Default link', 'Default link', 'Default link', 'Newsletter', 'Newsletter'])
    expect(visits.map((cells) => cells[4]).sort()).toEqual(['Viewed', 'Viewed', 'Viewed', 'Viewed', 'Viewed, Downloaded'])
    const apiVisits = await json<VisitDto[]>(`/files/${file.id}/visits?limit=100`)
    expect(visits.map((cells) => cells[2])).toEqual(apiVisits.map((visit) => visit.referrerHost || 'Direct or unknown'))

    await expectAccessible(page, 'analytics panel light')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-analytics-desktop.png'), fullPage: true })

    // One link: the newsletter's two views.
    await panel(page).getByLabel('Link', { exact: true }).selectOption({ label: 'Newsletter' })
    await eventually(async () => expect((await totals(page)).Views).toBe('2'))
    expect((await bars(page)).at(-1)?.views).toBe(2)
    await eventually(async () => expect((await rows(page, '.visits-table')).length).toBe(2))

    // The CSV of all the file's visits, fetched with the bearer token.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel(page).getByRole('button', { name: 'Download visits (CSV, all links)' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('report-visits.csv')
    const csv = (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/)
    expect(csv.length).toBe(1 + 5)
    expect(csv.slice(1).some((line) => line.includes('news.example.org'))).toBe(true)

    expect(unexpected(watched)).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  }, 180_000)

  test('reading per page: a bar of seconds and the reach for each page read', async () => {
    const file = await upload('handbook.pdf', 4)
    // Two readers; the page gives each a reading token, and each reports the pages it had on screen.
    const read = async (reader: number, pages: { page: number; ms: number }[]) => {
      const { html } = await view(file.shareUrl, reader)
      const token = /data-visit="([^"]+)"/.exec(html)?.[1]
      expect(token).toBeDefined()
      return { token: token!, pages }
    }
    const first = await read(11, [
      { page: 1, ms: 2000 },
      { page: 2, ms: 1000 },
    ])
    const second = await read(12, [{ page: 1, ms: 1000 }])
    await Bun.sleep(2500) // a batch may not claim more reading than the time since the visit
    for (const batch of [first, second]) {
      const response = await fetch(`${served(file.shareUrl)}/reading`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': browserNumber(1) },
        body: JSON.stringify({ visit: batch.token, pages: batch.pages }),
      })
      expect(response.status).toBe(204)
    }
    const month = await analytics(`/files/${file.id}`, 30)
    expect(month.pages.map(({ page, seconds, visitors }) => ({ page, seconds, visitors }))).toEqual([
      { page: 1, seconds: 3, visitors: 2 },
      { page: 2, seconds: 1, visitors: 1 },
    ])

    const watched = await watchedPage(app.browser)
    const { page } = watched
    await openFile(page, file.id)
    await eventually(async () =>
      expect(await rows(page, '.pages-table')).toEqual([
        ['1', '3 s', '2 visits'],
        ['2', '1 s', '1 visit'],
      ]),
    )
    // Each number has its bar; the longest fills its track.
    const fills = await panel(page)
      .locator('.pages-table td:nth-child(2) rect.hbar-fill')
      .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('width'))))
    expect(fills.map(Math.round)).toEqual([100, 33])
    expect((await totals(page))['Median reading time']).toMatch(/^\d+ s$/)
    expect(unexpected(watched)).toEqual([])
    await page.context().close()
  }, 180_000)

  test('a read in Chromium through the viewer: its beacon reaches the API, and the panel shows the same numbers', async () => {
    const file = await upload('journal.pdf', 3)
    // A browser that does not call itself headless, so the visit counts and the page carries a reading token.
    const reader = await watchedPage(app.browser, { userAgent: CHROME, height: 700 })
    await reader.page.goto(served(file.shareUrl))
    await reader.page.waitForSelector('.page[data-page-number="1"] canvas')
    await reader.page.waitForTimeout(2_000)
    await reader.page.locator('.page[data-page-number="2"]').scrollIntoViewIfNeeded()
    await reader.page.waitForTimeout(2_000)
    await reader.page.goto('about:blank') // pagehide: the viewer sends what is left with sendBeacon
    await reader.page.context().close()
    let month: AnalyticsDto | undefined
    await eventually(async () => {
      month = await analytics(`/files/${file.id}`, 30)
      expect(month.pages.length).toBeGreaterThanOrEqual(2)
      expect(month.pages[0]!.seconds).toBeGreaterThan(0.5)
      expect(month.pages[1]!.seconds).toBeGreaterThan(0.5)
    }, 15_000)
    expect(month!.pages[1]!.visitors).toBe(1)

    const watched = await watchedPage(app.browser)
    const { page } = watched
    await openFile(page, file.id)
    await eventually(async () =>
      expect(await rows(page, '.pages-table')).toEqual(
        month!.pages.map((entry) => [
          String(entry.page),
          formatDuration(entry.seconds),
          `${entry.visitors} ${entry.visitors === 1 ? 'visit' : 'visits'}`,
        ]),
      ),
    )
    expect(unexpected(watched)).toEqual([])
    await page.context().close()
  }, 180_000)

  test('a file nobody opened says what will appear and why; no serious accessibility finding in dark mode on a phone', async () => {
    const file = await upload('quiet.pdf', 1)
    const watched = await watchedPage(app.browser, { width: 360, height: 740, colorScheme: 'dark' })
    const { page } = watched
    await openFile(page, file.id)
    await eventually(async () => expect(await panel(page).locator('.empty-note').textContent()).toContain('No views in this period yet'))
    expect(await panel(page).locator('.empty-note').textContent()).toContain('link previews')
    expect(await panel(page).getByText('No reading time yet').count()).toBe(1)
    expect(await panel(page).getByText('No visits yet').count()).toBe(1)
    expect((await bars(page)).length).toBe(30)
    expect((await bars(page)).every((bar) => bar.views === 0)).toBe(true)
    expect(await panel(page).getByRole('img').getAttribute('aria-label')).toContain('no views')
    await panel(page).getByRole('button', { name: 'Show as table' }).click()
    await expectAccessible(page, 'analytics panel, dark phone')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-analytics-phone-dark.png'), fullPage: true })
    expect(unexpected(watched)).toEqual([])
    await page.context().close()
  }, 180_000)
})
