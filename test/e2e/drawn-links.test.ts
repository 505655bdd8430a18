import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { LINE, MAIL_LINK, WEB_LINK } from '../../scripts/support/links-pdf'
import { form } from '../support/harness'
import { shareUrlOn } from '../support/share-paths'
import { useBinaryApp } from './binary-app'

// A PDF's links, outline and lines of text on pages drawn by the server (issue 38, docs/share-page.md), and its
// outline in the pdf.js viewer: test/fixtures/links-outline.pdf (scripts/support/links-pdf.ts).
const app = useBinaryApp({ name: 'drawn-links', user: 'links-owner', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
const fixture = Bun.file(new URL('../fixtures/links-outline.pdf', import.meta.url))

async function shareOf(bytes: Uint8Array<ArrayBuffer>, allowDownload: boolean): Promise<string> {
  const response = await app.api('/files/upload', { method: 'POST', body: form({ bytes }, { allowDownload: String(allowDownload) }) })
  return shareUrlOn(app.server.url, (await response.json()).data)
}
const pageNumber = (page: Page) => page.locator('#page-number').inputValue()
const untilOnPage = (page: Page, number: number) =>
  page.waitForFunction((wanted) => (document.getElementById('page-number') as HTMLInputElement).value === String(wanted), number)

describe('a view-only link of a PDF with links and an outline', () => {
  test('its jump to page 5 goes there, its script link is no link, its outline lists and jumps, a line reads with its spaces', async () => {
    const url = await shareOf(new Uint8Array(await fixture.arrayBuffer()), false)
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(url)
      const one = page.locator('.image-page[data-page-number="1"]')
      await one.locator('.image-links a').first().waitFor()
      await one.locator('.image-line').first().waitFor()
      // The line of text: one box, its words with their spaces (innerText), and a line break before the next line.
      // innerText, not textContent, is what is tested: the text as laid out, as a screen reader and find read it.
      // biome-ignore lint/performance/useDomNodeTextContent: the laid-out text is what is tested
      expect(await one.locator('.image-line').first().innerText()).toBe(LINE)
      // biome-ignore lint/performance/useDomNodeTextContent: the laid-out text is what is tested
      expect(await one.locator('.image-text').innerText()).toStartWith(`${LINE}\nManual on the web\n`)

      // The web link goes out in a new tab, without referrer or opener; nothing else of the page is an address.
      const web = one.locator('.image-links a[target="_blank"]')
      expect([await web.getAttribute('href'), await web.getAttribute('rel')]).toEqual([WEB_LINK, 'noopener noreferrer'])
      const mail = one.locator(`.image-links a[href="${MAIL_LINK}"]`)
      expect([await mail.getAttribute('rel'), await mail.getAttribute('target')]).toEqual(['noopener noreferrer', null])
      expect(await page.locator('a[href^="javascript" i], a[href^="file" i], a[href^="data" i]').count()).toBe(0)
      // Where the script link, the JavaScript action, the file and the data links are drawn (72 pt in, 600, 560, 440
      // and 400 pt up), a click finds no link.
      const box = (await one.boundingBox())!
      for (const y of [600, 560, 440, 400]) {
        const target = await page.evaluate(
          ([x, top]) => document.elementFromPoint(x!, top!)?.closest('a')?.outerHTML ?? null,
          [box.x + box.width * (100 / 612), box.y + box.height * ((792 - y - 6) / 792)],
        )
        expect(target).toBeNull()
      }
      await page.mouse.click(box.x + box.width * (100 / 612), box.y + box.height * ((792 - 600 - 6) / 792))
      expect(page.url()).toBe(url)

      // The jump to page 5 shows page 5.
      await one.locator('.image-links a[href="#page=5"]').click()
      await untilOnPage(page, 5)

      // The outline: a navigation of its bookmarks to pages (not the one to a web address); keyboard and click jump.
      const toggle = page.locator('#outline-toggle')
      await toggle.click()
      expect(await toggle.getAttribute('aria-expanded')).toBe('true')
      const outline = page.getByRole('navigation', { name: 'Bookmarks' })
      expect(await outline.getByRole('link').allTextContents()).toEqual(['Introduction', 'Chapter five', 'Section 5.1'])
      await outline.getByRole('link', { name: 'Introduction' }).focus()
      await page.keyboard.press('Enter')
      await untilOnPage(page, 1)
      await outline.getByRole('link', { name: 'Chapter five' }).click()
      await untilOnPage(page, 5)
      await page.keyboard.press('Escape')
      expect(await outline.isHidden()).toBe(true)
      expect(await pageNumber(page)).toBe('5')
    } finally {
      await page.close()
    }
  })
})

describe('the pdf.js viewer', () => {
  test("the PDF's outline as a sidebar that jumps", async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(await shareOf(new Uint8Array(await fixture.arrayBuffer()), true))
      const toggle = page.locator('#outline-toggle')
      await toggle.waitFor()
      await toggle.click()
      const outline = page.getByRole('navigation', { name: 'Bookmarks' })
      expect(await outline.getByRole('link').allTextContents()).toEqual(['Introduction', 'Chapter five', 'Section 5.1'])
      await outline.getByRole('link', { name: 'Section 5.1' }).click()
      await untilOnPage(page, 5)
    } finally {
      await page.close()
    }
  })
})
