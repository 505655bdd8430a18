import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import { ROOT, run, type RunningServer, startServer } from '../../scripts/support/process'
import { bearer } from '../support/bearer'
import { form } from '../support/harness'
import { shareUrlOn } from '../support/share-paths'
import { eventually, firstPageInk, launchChromium, watchedPage } from './browser'

// Reading analytics in a real browser (Debian's Chromium), served by the compiled binary: the viewer's
// reports of a scripted read of a 10-page PDF must match what was shown, and a reader who sends Sec-GPC
// has no reading recorded at all.
const binarySource = join(ROOT, 'dist', 'pdfshare')
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-e2e-reading-'))
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.7339.80 Safari/537.36'
let server: RunningServer
let browser: Browser
let token: string

type Shared = { url: string; linkId: string }
async function uploadTenPages(title: string): Promise<Shared> {
  const bytes = makePdf({ pages: 10, text: (page) => `${title}, page ${page}` })
  const response = await fetch(`${server.url}/api/files/upload`, {
    method: 'POST',
    headers: bearer(token),
    body: form({ bytes }, { title }),
  })
  const { data } = await response.json()
  const links = await (await fetch(`${server.url}/api/files/${data.id}/links`, { headers: bearer(token) })).json()
  return { url: shareUrlOn(server.url, data), linkId: links.data[0].id }
}
const api = async (path: string) => (await fetch(`${server.url}${path}`, { headers: bearer(token) })).json()

/**
 * Brings page `n` to the top of the viewer (at "Fit page" exactly one page fills it), then stays `ms`. The stay
 * begins once the browser has rendered a frame with the page in place: the intersection observer the viewer
 * counts with sees the page only at a rendering step, and a browser starved of CPU renders seldom (a page
 * scrolled away before a step was never seen).
 */
async function dwell(page: Page, n: number, ms: number) {
  await page.evaluate(async (number) => {
    document.querySelector(`.page[data-page-number="${number}"]`)?.scrollIntoView({ block: 'start' })
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  }, n)
  await page.waitForTimeout(ms)
}

beforeAll(async () => {
  if (!existsSync(binarySource)) throw new Error('dist/pdfshare is missing: run `bun run build` (bun run test does)')
  const binary = join(dir, 'pdfshare')
  copyFileSync(binarySource, binary)
  await run(['user', 'add', 'reading-test'], { cwd: dir, program: [binary] })
  token = (await run(['token', 'issue', 'reading-test'], { cwd: dir, program: [binary] })).stdout.trim()
  server = await startServer([], { cwd: dir, program: [binary], env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('reading reports in Chromium', () => {
  test('a scripted read of 10 pages: every page reached, the pages dwelt on have the time', async () => {
    const shared = await uploadTenPages('Ten pages')
    const { page, consoleErrors, cspViolations } = await watchedPage(browser, { userAgent: CHROME })
    const openedAt = Date.now()
    await page.goto(shared.url)
    await firstPageInk(page)
    expect(await page.locator('#app').getAttribute('data-visit')).toMatch(/^[\w-]+\.\d+\.[\w-]+$/)
    await page.locator('#zoom').selectOption('page-fit')
    await page.waitForTimeout(300)

    const DWELT = [1, 5, 10]
    const shown = new Map<number, number>()
    for (let n = 1; n <= 10; n++) {
      const ms = DWELT.includes(n) ? 3000 : 400
      // Page 1 is on screen from the moment the document shows.
      const started = n === 1 ? openedAt : Date.now()
      await dwell(page, n, ms)
      shown.set(n, Date.now() - started)
    }
    // Leaving the page hides it: the viewer sends what is left with a beacon (the 15 s batches may have sent some before).
    await page.goto('about:blank')

    let pages: { page: number; seconds: number; visitors: number }[] = []
    await eventually(async () => {
      pages = (await api(`/api/links/${shared.linkId}/analytics`)).data.pages
      expect(pages.map((row) => row.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      // The last batch arrived: page 10 has its dwell time.
      expect(pages[9]!.seconds).toBeGreaterThan(2)
    }, 15_000)
    // Reach: the one visit got to every page.
    expect(pages.map((row) => row.visitors)).toEqual(Array(10).fill(1))
    const seconds = new Map(pages.map((row) => [row.page, row.seconds]))
    for (const n of DWELT) {
      // At least most of the dwell, and never more than the time the page was shown (plus scrolling and rounding).
      expect(seconds.get(n)!).toBeGreaterThan(2.2)
      expect(seconds.get(n)!).toBeLessThanOrEqual(shown.get(n)! / 1000 + 0.6)
    }
    const skipped = pages.filter((row) => !DWELT.includes(row.page)).map((row) => row.seconds)
    // A page scrolled past counts only while it was on screen: less than any page dwelt on (an absolute bound of
    // 1.2 s was a guess at how fast a loaded machine scrolls).
    expect(Math.max(...skipped)).toBeLessThan(Math.min(...DWELT.map((n) => seconds.get(n)!)))
    // In all, no more than the time the pages were on screen.
    const total = pages.reduce((sum, row) => sum + row.seconds, 0)
    const visits = (await api(`/api/links/${shared.linkId}/visits`)).data
    expect(visits).toHaveLength(1)
    expect(visits[0]).toMatchObject({ viewed: true, tracked: true, device: 'desktop' })
    expect(Math.abs(visits[0].readingSeconds - total)).toBeLessThan(0.6)
    expect(total).toBeLessThanOrEqual([...shown.values()].reduce((sum, ms) => sum + ms, 0) / 1000 + 1)
    expect(await cspViolations().catch(() => [])).toEqual([])
    expect(consoleErrors).toEqual([])
  })

  test('with Sec-GPC: 1 the view counts, untracked, and the viewer sends no reading at all', async () => {
    const shared = await uploadTenPages('Private reader')
    const { page } = await watchedPage(browser, { userAgent: CHROME })
    await page.setExtraHTTPHeaders({ 'Sec-GPC': '1' })
    await page.goto(shared.url)
    await firstPageInk(page)
    expect(await page.locator('#app').getAttribute('data-visit')).toBeNull()
    for (const n of [1, 2, 3]) await dwell(page, n, 700)
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')))
    await page.goto('about:blank')
    await Bun.sleep(1000)
    // (Playwright does not see beacons sent while a page is left, so the server's record is the proof.)
    const analytics = (await api(`/api/links/${shared.linkId}/analytics`)).data
    expect(analytics.totals.views).toBe(1)
    expect(analytics.pages).toEqual([])
    const visits = (await api(`/api/links/${shared.linkId}/visits`)).data
    expect(visits).toHaveLength(1)
    expect(visits[0]).toMatchObject({ tracked: false, readingSeconds: 0 })
  })
})
