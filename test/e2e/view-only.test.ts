import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { form } from '../support/harness'
import { shareUrlOn } from '../support/share-paths'
import { useBinaryApp } from './binary-app'
import { SCREENSHOTS } from './browser'

// "No download" that holds, in Chromium against the compiled binary: a link that does not allow downloads shows
// the pages the server draws, with their text, and not one response the browser receives is the PDF.
const app = useBinaryApp({ name: 'view-only', user: 'view-only-owner', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })

describe('a link that does not allow downloads, in Chromium', () => {
  test('not a byte of the PDF reaches the browser; the pages show, and find locates a word on page 7', async () => {
    const bytes = makePdf({ pages: 12, text: (p) => (p === 7 ? 'Chapter seven: the marmalade clause' : `Chapter ${p} of twelve`) })
    const response = await app.api('/files/upload', { method: 'POST', body: form({ bytes }, { allowDownload: 'false' }) })
    const url = shareUrlOn(app.server.url, (await response.json()).data)
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 860 } })
    try {
      const page = await context.newPage()
      const received: { url: string; type: string; body: Buffer }[] = []
      page.on('response', async (answer) => {
        const body = await answer.body().catch(() => Buffer.alloc(0))
        received.push({ url: answer.url(), type: answer.headers()['content-type'] ?? '', body })
      })
      await page.goto(url)
      // Page 1 is an image the server drew, on screen.
      await page.waitForFunction(() => document.getElementById('app')?.dataset.firstPageMs)
      const first = page.locator('.image-page[data-page-number="1"] img')
      expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
      expect(await page.locator('#page-count').textContent()).toBe('12')
      // Find, as a reader types it: the match on page 7 is highlighted and its page shown.
      await page.keyboard.press('Control+f')
      await page.keyboard.type('marmalade')
      await page.waitForFunction(() => document.getElementById('find-result')?.textContent === '1 of 1')
      expect(await page.locator('#page-number').inputValue()).toBe('7')
      const match = page.locator('.image-page[data-page-number="7"] .image-text .highlight.selected')
      expect(await match.textContent()).toBe('marmalade')
      expect(await match.isVisible()).toBe(true)
      await page.screenshot({ path: join(SCREENSHOTS, 'view-only-find.png') })
      // Selection works on the laid-over text: the words of page 7 as the reader selects them.
      expect(await page.locator('.image-page[data-page-number="7"] .image-text').textContent()).toContain(
        'Chapter seven: the marmalade clause',
      )
      // Every response: none is a PDF, by type or by content.
      await page.waitForTimeout(500)
      expect(received.length).toBeGreaterThan(5)
      for (const answer of received) {
        expect(`${answer.url} ${answer.type}`).not.toContain('application/pdf')
        expect(answer.body.includes('%PDF-')).toBe(false)
      }
      expect(received.some((answer) => answer.url.includes('/pages/7?w='))).toBe(true)
      // The PDF itself is refused to anyone asking.
      expect((await fetch(`${url}/file`)).status).toBe(403)
      expect((await fetch(`${url}/download`)).status).toBe(403)
    } finally {
      await context.close()
    }
  }, 180_000)

  test('printing shows a notice, not the pages', async () => {
    const response = await app.api('/files/upload', { method: 'POST', body: form({ bytes: makePdf() }, { allowDownload: 'false' }) })
    const url = shareUrlOn(app.server.url, (await response.json()).data)
    const context = await app.browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(url)
      await page.waitForSelector('.image-page[data-page-number="1"] img')
      await page.emulateMedia({ media: 'print' })
      expect(await page.locator('#viewer-container').isVisible()).toBe(false)
      const notice = await page.evaluate(() => getComputedStyle(document.body, '::after').content)
      expect(notice).toContain('Printing is disabled for this document.')
    } finally {
      await context.close()
    }
  })
})
