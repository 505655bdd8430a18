import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { DEBIAN_CHROMIUM, launchHeadlessChromium } from '../../scripts/support/chromium'
import sharp from 'sharp'
import { ROOT } from '../../scripts/support/process'
export { eventually } from '../support/eventually'

export const CHROMIUM = process.env.PDFSHARE_CHROMIUM ?? DEBIAN_CHROMIUM
export const SCREENSHOTS = join(ROOT, 'test-output', 'screenshots')

/** Debian's Chromium, headless, with the flags that work as root on these machines. Never downloads a browser. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is needed for the browser tests: apt-get install -y chromium (or set PDFSHARE_CHROMIUM)`)
  }
  mkdirSync(SCREENSHOTS, { recursive: true })
  const browser = await launchHeadlessChromium(CHROMIUM)
  // Every page waits up to 2 minutes for what it looks for (Playwright's default is 30 s): a bound for what never
  // happens, not a measure of speed. A step that takes 5 s on a quiet machine can take 40 on one the rest of the
  // suite keeps busy.
  const newContext = browser.newContext.bind(browser)
  browser.newContext = async (options) => {
    const context = await newContext(options)
    context.setDefaultTimeout(BROWSER_WAIT_MS)
    return context
  }
  return browser
}

/** How long a browser test's page waits for an element, a navigation or an event before it gives up. */
export const BROWSER_WAIT_MS = 120_000

export type Watched = {
  page: Page
  consoleErrors: string[]
  /** Bytes of the PDF delivered to the page so far (sum of /file response bodies). */
  pdfBytes: () => number
  cspViolations: () => Promise<string[]>
}

/** Opens a page that records console errors, uncaught errors, CSP violations and the PDF bytes it fetched. */
export async function watchedPage(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; userAgent?: string } = {},
): Promise<Watched> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    colorScheme: options.colorScheme ?? 'light',
    ...(options.userAgent && { userAgent: options.userAgent }),
  })
  const page = await context.newPage()
  const consoleErrors: string[] = []
  let pdfBytes = 0
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`))
  // Bytes that really arrived (a request the viewer aborts early counts only what came before the abort).
  const cdp = await context.newCDPSession(page)
  const pdfRequests = new Set<string>()
  cdp.on('Network.requestWillBeSent', (event) => {
    if (new URL(event.request.url).pathname.endsWith('/file')) pdfRequests.add(event.requestId)
  })
  cdp.on('Network.dataReceived', (event) => {
    if (pdfRequests.has(event.requestId)) pdfBytes += event.dataLength
  })
  await cdp.send('Network.enable')
  // Added through the DevTools protocol, so the page's own CSP does not apply to this listener.
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __cspViolations: string[] }).__cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
  })
  return {
    page,
    consoleErrors,
    pdfBytes: () => pdfBytes,
    cspViolations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
  }
}

/**
 * Waits until page 1 is drawn (by pdf.js, or by the server for a link that does not allow downloads) and returns
 * how many pixels of its screenshot are dark (ink). A screenshot, not
 * the canvas itself: pdf.js may render through an OffscreenCanvas that the page cannot read back.
 */
export async function firstPageInk(page: Page): Promise<number> {
  // pdf.js's canvas, or the image viewer's page drawn by the server (a link that does not allow downloads).
  await page.waitForFunction(
    () =>
      document.querySelector('.page[data-page-number="1"] canvas') ||
      document.querySelector<HTMLImageElement>('.page[data-page-number="1"] img')?.naturalWidth,
  )
  await page.waitForFunction(() => document.querySelector('#status')?.hasAttribute('hidden'))
  for (let attempt = 0; attempt < 40; attempt++) {
    const png = await page.locator('.page[data-page-number="1"]').screenshot()
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true })
    let ink = 0
    for (let i = 0; i < info.width * info.height; i++) if (data[i]! < 128) ink++
    if (ink > 0) return ink
    await page.waitForTimeout(100)
  }
  return 0
}
