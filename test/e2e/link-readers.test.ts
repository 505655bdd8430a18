import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import type { Browser } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import { ROOT, run, type RunningServer, startServer } from '../../scripts/support/process'
import { addLinkInDatabase, type LinkOptions } from '../support/links'
import { uploadPdfTo } from '../support/uploads'
import { firstPageInk, launchChromium, SCREENSHOTS, watchedPage } from './browser'

// Share links in a real browser (Debian's Chromium via playwright-core), served by the compiled binary. The
// links are written into the binary's database file by another connection, as the links API would.
const binarySource = join(ROOT, 'dist', 'pdfshare')
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-e2e-links-'))
let server: RunningServer
let browser: Browser
let fileId: string

const TITLE = 'Board minutes'
/** Headless Chromium says so in its User-Agent, and is then never counted: these readers say they are plain Chrome. */
const chrome = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.${n}.0 Safari/537.36`
/** A new link to the test's PDF; its URL on the address the server listens on. */
async function newLink(options: LinkOptions) {
  const link = await addLinkInDatabase(join(dir, 'data', 'pdfshare.db'), fileId, options)
  return `${server.url}${link.path}`
}

/** A link's counted views, read from the binary's database file. */
async function viewsOf(url: string): Promise<number> {
  const db = createClient({ url: `file:${join(dir, 'data', 'pdfshare.db')}` })
  try {
    const result = await db.execute({ sql: 'SELECT views FROM links WHERE slug = ?', args: [url.split('/s/')[1]!] })
    return Number(result.rows[0]![0])
  } finally {
    db.close()
  }
}

beforeAll(async () => {
  if (!existsSync(binarySource)) throw new Error('dist/pdfshare is missing: run `bun run build` (bun run test does)')
  const binary = join(dir, 'pdfshare')
  copyFileSync(binarySource, binary)
  await run(['user', 'add', 'link-reader-test'], { cwd: dir, program: [binary] })
  const token = (await run(['token', 'issue', 'link-reader-test'], { cwd: dir, program: [binary] })).stdout.trim()
  server = await startServer([], { cwd: dir, program: [binary], env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
  // Large enough that the viewer reads it in range requests.
  const pdf = makePdf({ pages: 12, imageBytesPerPage: 270_000, layout: 'grouped', text: (p) => `Minutes, page ${p}` })
  fileId = (await uploadPdfTo(server.url, token, pdf, { title: TITLE })).id
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('share links in Chromium, served by the compiled binary', () => {
  test('a password link: the password page, a wrong password, then the right one, and the PDF renders', async () => {
    const url = await newLink({ password: 'correct horse' })
    const { page, consoleErrors, cspViolations } = await watchedPage(browser)
    await page.goto(url)
    expect(await page.title()).toBe('Password required')
    expect(await page.content()).not.toContain(TITLE)
    await page.locator('#link-password').fill('wrong horse')
    await Promise.all([page.waitForLoadState('load'), page.locator('button[type="submit"]').click()])
    await page.waitForSelector('text=Wrong password')
    expect(await page.title()).toBe('Password required')
    await page.locator('#link-password').fill('correct horse')
    await Promise.all([page.waitForURL(url), page.locator('button[type="submit"]').click()])
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    expect(await page.title()).toBe(TITLE)
    await page.waitForSelector('.page[data-page-number="1"] .textLayer span')
    expect(await page.locator('.page[data-page-number="1"] .textLayer').textContent()).toContain('Minutes, page 1')
    await page.screenshot({ path: join(SCREENSHOTS, 'link-password-unlocked.png') })
    expect(await cspViolations()).toEqual([])
    // The 401 of the wrong password is the one console line Chromium writes; nothing else.
    expect(consoleErrors.filter((line) => !line.includes('401'))).toEqual([])
    await page.context().close()
  })

  const goneCases = [
    { name: 'an expired link', options: { expiresAt: Date.now() - 60_000 }, words: 'This link expired on ' },
    { name: 'a disabled link', options: { disabled: true }, words: 'This link has been turned off' },
  ]
  for (const { name, options, words } of goneCases) {
    test(`${name} shows the 410 page`, async () => {
      const url = await newLink(options)
      const { page } = await watchedPage(browser)
      const response = await page.goto(url)
      expect(response!.status()).toBe(410)
      expect(await page.locator('main').textContent()).toContain(words)
      expect(await page.content()).not.toContain(TITLE)
      await page.context().close()
    })
  }

  test('a link with one view: the first reader reads the document (ranges of /file included); a second browser gets 410', async () => {
    const url = await newLink({ maxViews: 1 })
    const first = await watchedPage(browser, { userAgent: chrome(1) })
    const fileStatuses: number[] = []
    first.page.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('/file')) fileStatuses.push(response.status())
    })
    await first.page.goto(url)
    expect(await firstPageInk(first.page)).toBeGreaterThan(200)
    // Later pages come in range requests, after the link is used up: the grant keeps them coming.
    await first.page.locator('#page-number').fill('12')
    await first.page.keyboard.press('Enter')
    await first.page.waitForSelector('.page[data-page-number="12"] .textLayer span')
    expect(fileStatuses.length).toBeGreaterThan(1)
    expect(fileStatuses.every((status) => status === 206 || status === 200)).toBe(true)
    expect(fileStatuses).toContain(206)
    expect(first.consoleErrors).toEqual([])

    const second = await watchedPage(browser, { userAgent: chrome(2) })
    const response = await second.page.goto(url)
    expect(response!.status()).toBe(410)
    expect(await second.page.locator('main').textContent()).toContain('This link has reached its view limit')
    expect(await second.page.content()).not.toContain(TITLE)

    // The first reader reloads: still reading.
    const again = await first.page.reload()
    expect(again!.status()).toBe(200)
    expect(await firstPageInk(first.page)).toBeGreaterThan(200)
    await first.page.context().close()
    await second.page.context().close()
  })

  test('a limited link’s page that came without a grant (uncounted) asks once more as a plain navigation, which counts', async () => {
    const url = await newLink({ maxViews: 3 })
    const reader = await watchedPage(browser, { userAgent: chrome(3) })
    const navigations: string[] = []
    // The browser's first request for the page is not counted (as a prefetch or prerender would not be; Chromium
    // keeps its own Sec-Purpose, so here it claims to be a link unfurler): the page comes without a grant.
    await reader.page.route(url, async (route) => {
      const uncounted = navigations.length === 0
      navigations.push(uncounted ? 'uncounted' : 'navigation')
      await route.continue({ headers: { ...route.request().headers(), ...(uncounted && { 'user-agent': 'Slackbot-LinkExpanding 1.0' }) } })
    })
    await reader.page.goto(url)
    expect(await firstPageInk(reader.page)).toBeGreaterThan(200)
    expect(navigations).toEqual(['uncounted', 'navigation'])
    expect(await viewsOf(url)).toBe(1)
    await reader.page.context().close()
  })

  test('a limited link visited over the per-address bound: one more try, then the reader is told why it does not open', async () => {
    const url = await newLink({ maxViews: 100 })
    // This machine's address has used its views of the link in this half hour (20 other browsers).
    for (let i = 0; i < 20; i++) expect((await fetch(url, { headers: { 'user-agent': chrome(100 + i) } })).status).toBe(200)
    const reader = await watchedPage(browser, { userAgent: chrome(4) })
    let navigations = 0
    reader.page.on('request', (request) => {
      if (request.isNavigationRequest()) navigations++
    })
    await reader.page.goto(url)
    await reader.page.waitForSelector('#status[data-problem="not-counted"]')
    expect(await reader.page.locator('#status').textContent()).toContain('This visit could not be counted')
    expect(navigations).toBe(2)
    expect(reader.pdfBytes()).toBe(0)
    await reader.page.context().close()
  })
})
