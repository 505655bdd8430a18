import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Route } from 'playwright-core'
import { bearer } from '../support/bearer'
import { form } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { ROOT, run, startServer, type RunningServer } from '../../scripts/support/process'
import { shareUrlOn } from '../support/share-paths'
import { eventually, firstPageInk, launchChromium, SCREENSHOTS, watchedPage } from './browser'
import {
  brokenFirstPage,
  notParseable,
  onlyPageBroken,
  passwordProtected,
  stickyNotes,
  unknownSecurityHandler,
  zeroPages,
} from './viewer-pdfs'

// The share page in a real browser (Debian's Chromium via playwright-core), served by the compiled binary.
const binarySource = join(ROOT, 'dist', 'pdfshare')
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-e2e-'))
let server: RunningServer
let browser: Browser
let token: string
const shared: Record<string, { id: string; url: string; size: number }> = {}

async function upload(name: string, bytes: Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/files/upload`, { method: 'POST', headers: bearer(token), body: form({ bytes }, fields) })
  const { data } = await response.json()
  if (!response.ok) return // a refused upload: the test that needs it fails on the missing entry
  // The binary's public URL is http://localhost:<port>; the page is opened on the address it listens on.
  shared[name] = { id: data.id, url: shareUrlOn(server.url, data), size: data.fileSize }
}

beforeAll(async () => {
  if (!existsSync(binarySource)) throw new Error('dist/pdfshare is missing: run `bun run build` (bun run test does)')
  const binary = join(dir, 'pdfshare')
  copyFileSync(binarySource, binary)
  await run(['user', 'add', 'reader-test'], { cwd: dir, program: [binary] })
  token = (await run(['token', 'issue', 'reader-test'], { cwd: dir, program: [binary] })).stdout.trim()
  server = await startServer([], { cwd: dir, program: [binary], env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
  await upload('small', makePdf({ pages: 2, text: (p) => `Hello pdfshare, page ${p}` }), { title: 'Quarterly numbers' })
  await upload('noDownload', makePdf({ pages: 1, text: () => 'Read only document' }), { allowDownload: 'false' })
  await upload('large', makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped', text: (p) => `Large document, page ${p}` }), {
    title: 'Sixty pages',
  })
  await upload(
    'scattered',
    makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'interleaved', text: (p) => `Scattered document, page ${p}` }),
  )
  await upload('broken', notParseable(), { title: 'Broken' })
  await upload('brokenNoDownload', notParseable(), { allowDownload: 'false' })
  await upload('unknownHandler', unknownSecurityHandler())
  await upload('zeroPages', zeroPages())
  await upload('zeroPagesNoDownload', zeroPages(), { allowDownload: 'false' })
  await upload('brokenFirstPage', brokenFirstPage())
  await upload('brokenFirstPageNoDownload', brokenFirstPage(), { allowDownload: 'false' })
  await upload('onlyPageBroken', onlyPageBroken())
  await upload('password', passwordProtected('open sesame', 'The secret page'))
  await upload('passwordNoDownload', passwordProtected('open sesame', 'The secret page'), { allowDownload: 'false' })
  await upload('stickyNotes', stickyNotes())
  await upload(
    'junkBeforeHeader',
    new Uint8Array(Buffer.concat([Buffer.from('\uFEFF\r\nX-Gateway: scanned\r\n\r\n'), makePdf({ text: () => 'Junk came first' })])),
  )
  browser = await launchChromium()
  console.log(`browser screenshots: ${SCREENSHOTS}`)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('the viewer in Chromium, served by the compiled binary', () => {
  test('renders page 1 with a text layer; no console errors, no CSP violations', async () => {
    const { page, consoleErrors, cspViolations } = await watchedPage(browser)
    await page.goto(shared.small!.url)
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    await page.waitForSelector('.page[data-page-number="1"] .textLayer span')
    expect(await page.locator('.page[data-page-number="1"] .textLayer').textContent()).toContain('Hello pdfshare, page 1')
    expect(await page.locator('#page-count').textContent()).toBe('2')
    expect(await page.title()).toBe('Quarterly numbers')
    await page.screenshot({ path: join(SCREENSHOTS, 'desktop-light.png') })
    expect(await cspViolations()).toEqual([])
    expect(consoleErrors).toEqual([])
  })

  test('the download button is there when allowed and absent when not', async () => {
    const allowed = await watchedPage(browser)
    await allowed.page.goto(shared.small!.url)
    await firstPageInk(allowed.page)
    expect(await allowed.page.locator('#download').isVisible()).toBe(true)
    const [download] = await Promise.all([allowed.page.waitForEvent('download'), allowed.page.locator('#download').click()])
    expect(download.suggestedFilename()).toBe('report.pdf')

    // Without downloads the pages are drawn by the server (test/e2e/view-only.test.ts), and there is no way to the PDF.
    const denied = await watchedPage(browser)
    await denied.page.goto(shared.noDownload!.url)
    await denied.page.waitForFunction(() => document.querySelector<HTMLImageElement>('.image-page[data-page-number="1"] img')?.naturalWidth)
    expect(await denied.page.locator('#download').count()).toBe(0)
    expect(await denied.page.locator('a[href$="/download"]').count()).toBe(0)
    expect(await denied.consoleErrors).toEqual([])
  })

  test('navigation, zoom and find work from the toolbar and the keyboard', async () => {
    const { page, consoleErrors } = await watchedPage(browser)
    await page.goto(shared.small!.url)
    await firstPageInk(page)
    await page.locator('#next-page').click()
    await eventually(async () => expect(await page.locator('#page-number').inputValue()).toBe('2'))
    await page.keyboard.press('p')
    await eventually(async () => expect(await page.locator('#page-number').inputValue()).toBe('1'))

    const width = () => page.locator('.page[data-page-number="1"]').evaluate((el) => el.getBoundingClientRect().width)
    await page.locator('#zoom').selectOption('1')
    const at100 = await width()
    await page.locator('#zoom-in').click()
    await eventually(async () => expect(await width()).toBeGreaterThan(at100 * 1.05))
    await page.keyboard.press('-')
    await page.keyboard.press('-')
    await eventually(async () => expect(await width()).toBeLessThan(at100))
    await page.locator('#zoom').selectOption('page-fit')
    await eventually(async () => expect(await page.locator('#zoom').inputValue()).toBe('page-fit'))

    // Find starts at the current page: make that page 1 (after the zoom changes the view may rest on page 2).
    await page.keyboard.press('Home')
    await eventually(async () => expect(await page.locator('#page-number').inputValue()).toBe('1'))
    await page.keyboard.press('Control+f')
    await eventually(async () => expect(await page.locator('#find-bar').isVisible()).toBe(true))
    await page.locator('#find-input').fill('pdfshare')
    await eventually(async () => expect(await page.locator('#find-result').textContent()).toBe('1 of 2'), 10_000)
    await page.keyboard.press('Enter')
    await eventually(async () => expect(await page.locator('#find-result').textContent()).toBe('2 of 2'))
    await eventually(async () => expect(await page.locator('.textLayer .highlight').count()).toBeGreaterThan(0))
    await page.keyboard.press('Escape')
    await eventually(async () => expect(await page.locator('#find-bar').isVisible()).toBe(false))
    expect(consoleErrors).toEqual([])
  })

  test('a 360 px phone: every control fits, nothing overflows', async () => {
    const { page, consoleErrors } = await watchedPage(browser, { width: 360, height: 740 })
    await page.goto(shared.small!.url)
    expect(await firstPageInk(page)).toBeGreaterThan(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
    for (const id of ['#previous-page', '#page-number', '#next-page', '#zoom', '#find-toggle', '#download']) {
      const box = await page.locator(id).boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(360)
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-360-light.png') })
    expect(consoleErrors).toEqual([])
  })

  test('a 390 px phone: no horizontal overflow, in dark mode', async () => {
    const { page, consoleErrors, cspViolations } = await watchedPage(browser, { width: 390, height: 844, colorScheme: 'dark' })
    await page.goto(shared.small!.url)
    expect(await firstPageInk(page)).toBeGreaterThan(0)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    const toolbarRight = await page
      .locator('.toolbar')
      .evaluate((bar) =>
        Math.max(
          ...[...bar.querySelectorAll('button, input, select, a')]
            .filter((el) => (el as HTMLElement).offsetParent)
            .map((el) => el.getBoundingClientRect().right),
        ),
      )
    expect(toolbarRight).toBeLessThanOrEqual(390)
    const background = await page.locator('.toolbar').evaluate((bar) => getComputedStyle(bar).backgroundColor)
    expect(background).toBe('rgb(38, 39, 44)')
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-dark.png') })
    expect(await cspViolations()).toEqual([])
    expect(consoleErrors).toEqual([])
  })

  test('a 60-page 16 MB PDF: page 1 appears after fetching a small fraction of the file; pages render lazily', async () => {
    const { page, pdfBytes, consoleErrors } = await watchedPage(browser)
    await page.goto(shared.large!.url)
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    const fetched = pdfBytes()
    const firstPageMs = Number(await page.locator('#app').getAttribute('data-first-page-ms'))
    console.log(
      `large PDF: page 1 drawn ${firstPageMs} ms after navigation, ${(fetched / 1024).toFixed(0)} KiB of ${(shared.large!.size / 1024 / 1024).toFixed(1)} MiB fetched (${((fetched / shared.large!.size) * 100).toFixed(1)} %)`,
    )
    expect(shared.large!.size).toBeGreaterThan(16_000_000)
    expect(firstPageMs).toBeGreaterThan(0)
    expect(fetched).toBeGreaterThan(0)
    expect(fetched).toBeLessThan(shared.large!.size * 0.1)
    expect(await page.locator('#page-count').textContent()).toBe('60')
    // Pages are drawn lazily: far pages have no canvas until they scroll into view.
    expect(await page.locator('.page[data-page-number="50"] canvas').count()).toBe(0)
    await page.locator('#page-number').fill('50')
    await page.locator('#page-number').press('Enter')
    await page.waitForSelector('.page[data-page-number="50"] canvas')
    await eventually(async () => expect(await page.locator('.page[data-page-number="50"] .textLayer').textContent()).toContain('page 50'))
    await page.screenshot({ path: join(SCREENSHOTS, 'large-page-50.png') })
    expect(pdfBytes()).toBeLessThan(shared.large!.size * 0.2)
    expect(consoleErrors).toEqual([])
  })

  test('the same with page objects scattered through the file (the worst layout for ranges)', async () => {
    // pdf.js walks the page tree to the last page on open, which touches one chunk per page here.
    const { page, pdfBytes } = await watchedPage(browser)
    await page.goto(shared.scattered!.url)
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    const fetched = pdfBytes()
    console.log(
      `scattered PDF: page 1 drawn ${await page.locator('#app').getAttribute('data-first-page-ms')} ms after navigation, ${(fetched / 1024).toFixed(0)} KiB of ${(shared.scattered!.size / 1024 / 1024).toFixed(1)} MiB fetched (${((fetched / shared.scattered!.size) * 100).toFixed(1)} %)`,
    )
    expect(fetched).toBeLessThan(shared.scattered!.size * 0.35)
  })

  test('a human visit in a browser counts once; reloads do not', async () => {
    const human = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
    const { page } = await watchedPage(browser, { userAgent: human })
    await page.goto(shared.noDownload!.url)
    await page.reload()
    await page.reload()
    const views = async () =>
      (await (await fetch(`${server.url}/api/files/${shared.noDownload!.id}`, { headers: bearer(token) })).json()).data.views
    expect(await views()).toBe(1)
  })
})

/** The state #status settles in, and its words; waits until it is an error (or `state`). */
async function settledStatus(page: Page, state = 'error') {
  await page.waitForSelector(`#status[data-state="${state}"]`, { state: 'attached' })
  const status = page.locator('#status')
  return {
    problem: await status.getAttribute('data-problem'),
    text: (await status.textContent()) ?? '',
    downloads: await status.locator('a[href$="/download"]').count(),
  }
}

describe('the viewer never spins forever: a clear state for each problem', () => {
  test('a file pdf.js cannot parse: "cannot be displayed" with the download, never a connection problem', async () => {
    // pdf.js reports the first as InvalidPDFException, the second as UnknownErrorException (its worker's error).
    for (const name of ['unknownHandler', 'broken']) {
      const { page } = await watchedPage(browser)
      await page.goto(shared[name]!.url)
      const status = await settledStatus(page)
      expect(status.text).not.toMatch(/connection/i)
      expect(status.text).toContain('This document cannot be displayed')
      expect(status.text).toContain('not a PDF this viewer can read')
      expect(status.problem).toBe('unreadable')
      expect(status.downloads).toBe(1)
      if (name === 'broken') await page.screenshot({ path: join(SCREENSHOTS, 'error-state.png') })
      await page.close()
    }
    const { page } = await watchedPage(browser)
    await page.goto(shared.brokenNoDownload!.url)
    const status = await settledStatus(page)
    expect(status.problem).toBe('unreadable')
    expect(status.downloads).toBe(0)
    expect(await page.locator('a[href$="/download"]').count()).toBe(0)
  })

  test('a PDF with no pages says so, with the download when allowed and without it when not', async () => {
    const { page } = await watchedPage(browser)
    await page.goto(shared.zeroPages!.url)
    const status = await settledStatus(page)
    expect(status.problem).toBe('no-pages')
    expect(status.text).toContain('This document has no pages')
    expect(status.downloads).toBe(1)
    await page.screenshot({ path: join(SCREENSHOTS, 'error-no-pages.png') })

    // Drawn on the server: PDFium opens no document without pages, so it cannot be displayed.
    const denied = await watchedPage(browser)
    await denied.page.goto(shared.zeroPagesNoDownload!.url)
    expect(['no-pages', 'unreadable']).toContain((await settledStatus(denied.page)).problem!)
    expect(await denied.page.locator('a[href$="/download"]').count()).toBe(0)
  })

  test('page 1 that pdf.js cannot read: an error in its place, the other pages readable and searchable', async () => {
    const { page } = await watchedPage(browser)
    await page.goto(shared.brokenFirstPage!.url)
    await settledStatus(page, 'ready')
    expect(await page.locator('#status').isHidden()).toBe(true)
    expect(await page.locator('#page-count').textContent()).toBe('3')
    const first = page.locator('.page[data-page-number="1"] .page-error')
    await first.waitFor()
    expect(await first.textContent()).toContain('Page 1 cannot be displayed')
    expect(await first.locator('a[href$="/download"]').count()).toBe(1)
    // Page 1 shows no content of another page in its place.
    expect(await page.locator('.page[data-page-number="1"] .textLayer').count()).toBe(0)
    await eventually(
      async () =>
        expect(await page.locator('.page[data-page-number="2"] .textLayer').textContent()).toContain('Second page still readable'),
      20_000,
    )
    await page.screenshot({ path: join(SCREENSHOTS, 'error-page-1.png') })
    // The document stays usable: navigation, zoom (which redraws every page) and find.
    await page.locator('#page-number').fill('3')
    await page.locator('#page-number').press('Enter')
    await eventually(
      async () => expect(await page.locator('.page[data-page-number="3"] .textLayer').textContent()).toContain('Third page still readable'),
      20_000,
    )
    await page.locator('#zoom').selectOption('0.5')
    await page.keyboard.press('Home')
    await eventually(async () => expect(await page.locator('.page[data-page-number="1"] .page-error').count()).toBe(1))
    await page.keyboard.press('Control+f')
    await page.locator('#find-input').fill('still readable')
    // Both matches are found (pages 2 and 3); which one is first depends on the page the view rests on.
    await eventually(async () => expect(await page.locator('#find-result').textContent()).toMatch(/^[12] of 2$/), 20_000)

    // Drawn on the server by PDFium, which refuses this file whole (pdf.js reads its other pages): "cannot be
    // displayed", and still no way to the PDF.
    const denied = await watchedPage(browser)
    await denied.page.goto(shared.brokenFirstPageNoDownload!.url)
    const refused = await settledStatus(denied.page)
    expect([refused.problem, refused.downloads]).toEqual(['unreadable', 0])
    expect(await denied.page.locator('a[href$="/download"]').count()).toBe(0)
  })

  test('a document whose only page pdf.js cannot read: "cannot be displayed", not "Loading"', async () => {
    const { page } = await watchedPage(browser)
    await page.goto(shared.onlyPageBroken!.url)
    const status = await settledStatus(page)
    expect(status.problem).toBe('unreadable')
    expect(status.downloads).toBe(1)
  })

  test('a password-protected PDF says so and asks for the password; a wrong one is refused, the right one opens it', async () => {
    const { page, cspViolations } = await watchedPage(browser)
    await page.goto(shared.password!.url)
    let status = await settledStatus(page)
    expect(status.text).toContain('This document is password-protected')
    expect(await page.getByLabel('Password').count()).toBe(1)
    expect(status.problem).toBe('password')
    expect(status.downloads).toBe(1)
    await page.screenshot({ path: join(SCREENSHOTS, 'password.png') })
    await page.getByLabel('Password').fill('not it')
    await page.getByRole('button', { name: 'Open' }).click()
    await eventually(async () => expect(await page.locator('#status').textContent()).toContain('That password is not correct'))
    expect(await page.locator('#status').getAttribute('data-problem')).toBe('password')
    await page.getByLabel('Password').fill('open sesame')
    await page.getByLabel('Password').press('Enter')
    expect(await firstPageInk(page)).toBeGreaterThan(0)
    await eventually(async () =>
      expect(await page.locator('.page[data-page-number="1"] .textLayer').textContent()).toContain('The secret page'),
    )
    expect(await cspViolations()).toEqual([])

    // Drawn on the server, which has no password to open it with: the reader is told so, and why.
    const denied = await watchedPage(browser)
    await denied.page.goto(shared.passwordNoDownload!.url)
    status = await settledStatus(denied.page)
    expect(status.problem).toBe('password-on-server')
    expect(status.text).toContain('cannot be drawn without its password')
    expect(await denied.page.locator('a[href$="/download"]').count()).toBe(0)
  })

  test('the connection breaks: "check your connection" with a Retry that picks up where it stopped', async () => {
    const { page } = await watchedPage(browser)
    let broken = true
    await page.route(
      (url) => url.pathname.endsWith('/file'),
      (route) => (broken ? route.abort('connectionreset') : route.continue()),
    )
    await page.goto(shared.small!.url)
    const status = await settledStatus(page)
    expect(status.text).toContain('Check your connection')
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(1)
    expect(status.problem).toBe('network')
    expect(status.downloads).toBe(1)
    await page.screenshot({ path: join(SCREENSHOTS, 'error-network.png') })
    broken = false
    await page.getByRole('button', { name: 'Retry' }).click()
    expect(await firstPageInk(page)).toBeGreaterThan(200)
  })

  /** Stops the page's running clock where it is now (Playwright can only pause at a time still to come). */
  const pauseNow = async (page: Page) => {
    for (let ahead = 250; ahead <= 16_000; ahead *= 2) {
      const now = await page.evaluate(() => Date.now())
      const paused = await page.clock.pauseAt(now + ahead).then(
        () => true,
        () => false, // the clock ran past that moment before the pause arrived: a little further ahead
      )
      if (paused) return
    }
    throw new Error("the page's clock could not be paused")
  }

  test('nothing arrives for 20 seconds: the status says so, and Retry asks again', async () => {
    const { page } = await watchedPage(browser)
    await page.clock.install()
    let hold = true
    const held: Route[] = []
    await page.route(
      (url) => url.pathname.endsWith('/file'),
      (route) => (hold ? void held.push(route) : route.continue()),
    )
    await page.goto(shared.small!.url)
    await eventually(() => expect(held.length).toBeGreaterThan(0))
    // From here the page's clock moves only where the test moves it: a busy machine's seconds are not the page's.
    // (Until here it ran, for as long as loading the page took: up to a few seconds of the 20 on a busy machine.)
    await pauseNow(page)
    await page.clock.fastForward(10_000)
    expect(await page.locator('#status').getAttribute('data-state')).toBe('loading')
    await page.clock.fastForward(12_000)
    const status = await settledStatus(page)
    expect(status.problem).toBe('stalled')
    expect(status.text).toContain('Nothing has arrived from the server for 20 seconds')
    hold = false
    await page.clock.resume()
    await page.getByRole('button', { name: 'Retry' }).click()
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    for (const route of held) await route.abort().catch(() => {})
  })

  test("pdf.js's worker never arrives: after 20 seconds the status says opening takes too long", async () => {
    const { page } = await watchedPage(browser)
    await page.clock.install()
    let workerRequested = false
    await page.route(
      (url) => url.pathname.endsWith('/pdf.worker.min.mjs'),
      () => {
        workerRequested = true
      },
    )
    await page.goto(shared.small!.url)
    await eventually(() => expect(workerRequested).toBe(true))
    await page.clock.fastForward(22_000)
    const status = await settledStatus(page)
    expect(status.problem).toBe('slow')
    expect(status.text).toContain('Opening the document is taking too long')
    expect(await page.getByRole('button', { name: 'Reload the page' }).count()).toBe(1)
    expect(status.downloads).toBe(1)
  })

  test("pdf.js's worker cannot be loaded: the viewer says it could not start, with Reload", async () => {
    const { page } = await watchedPage(browser)
    await page.route(
      (url) => url.pathname.endsWith('/pdf.worker.min.mjs'),
      (route) => route.fulfill({ status: 404, body: 'gone' }),
    )
    await page.goto(shared.small!.url)
    const status = await settledStatus(page)
    expect(status.text).toContain('The viewer could not start')
    expect(status.text).toContain('reload the page')
    expect(status.problem).toBe('no-viewer')
    expect(await page.getByRole('button', { name: 'Reload the page' }).count()).toBe(1)
  })
})

describe('sticky notes and other annotations', () => {
  test("pdf.js's annotation icons load: no request of the viewer fails", async () => {
    const { page, consoleErrors, cspViolations } = await watchedPage(browser)
    const failed: string[] = []
    page.on('response', (response) => void (response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`)))
    page.on('requestfailed', (request) => void failed.push(`failed ${request.url()}`))
    await page.goto(shared.stickyNotes!.url)
    expect(await firstPageInk(page)).toBeGreaterThan(0)
    const icons = page.locator('.page[data-page-number="1"] .annotationLayer img')
    await eventually(async () => expect(await icons.count()).toBe(4), 20_000)
    // Every icon was fetched and decoded (a 404 leaves an <img> with no natural size).
    await eventually(async () =>
      expect(
        await icons.evaluateAll((images) =>
          images.map((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0),
        ),
      ).toEqual([true, true, true, true]),
    )
    expect(
      await icons.evaluateAll((images) =>
        images.map((image) => new URL((image as HTMLImageElement).src).pathname.replace(/^.*\/images\//, '')),
      ),
    ).toEqual(['annotation-note.svg', 'annotation-comment.svg', 'annotation-circle.svg', 'annotation-paperclip.svg'])
    await page.locator('.page[data-page-number="1"]').screenshot({ path: join(SCREENSHOTS, 'sticky-notes.png') })
    expect(failed).toEqual([])
    expect(consoleErrors).toEqual([])
    expect(await cspViolations()).toEqual([])
  })
})

describe('what real readers accept', () => {
  test('a PDF with a byte-order mark and junk before its %PDF- header is accepted on upload and shown', async () => {
    const { page, consoleErrors } = await watchedPage(browser)
    await page.goto(shared.junkBeforeHeader!.url)
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    await eventually(async () =>
      expect(await page.locator('.page[data-page-number="1"] .textLayer').textContent()).toContain('Junk came first'),
    )
    expect(consoleErrors.filter((line) => !line.startsWith('warning: Warning:'))).toEqual([])
  })
})
