import { describe, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { form } from '../support/harness'
import { shareUrlOn } from '../support/share-paths'
import { useBinaryApp } from './binary-app'

// Text on pages drawn by the server (a view-only link) copies as text (issue 38): a sentence selected across its
// words, and across pages, copies with its spaces and line breaks, not run together.
const app = useBinaryApp({ name: 'view-only-copy', user: 'copy-owner', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
const SENTENCE = 'Many programs and desktops use the MIME system'

describe('a view-only page', () => {
  test('a sentence selected across its words copies with its spaces; across two pages, with a line break', async () => {
    const bytes = makePdf({ pages: 2, text: (p) => (p === 1 ? SENTENCE : 'Second page here') })
    const response = await app.api('/files/upload', { method: 'POST', body: form({ bytes }, { allowDownload: 'false' }) })
    const url = shareUrlOn(app.server.url, (await response.json()).data)
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 1600 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url })
    try {
      const page = await context.newPage()
      await page.goto(url)
      const words = (n: number) => page.locator(`.image-page[data-page-number="${n}"] .image-text span`)
      await words(1).first().waitFor()
      await words(2).first().waitFor({ state: 'attached' })
      expect(await words(1).count()).toBe(SENTENCE.split(' ').length)
      /** Selects from the start of word `from` to the end of word `to` (CSS selectors), copies, answers the clipboard. */
      const copied = async (from: string, to: string) => {
        await page.evaluate(
          ([first, last]) => {
            const start = document.querySelector(first!)!.firstChild!
            const end = document.querySelector(last!)!.firstChild!
            document.getSelection()!.setBaseAndExtent(start, 0, end, end.textContent!.length)
          },
          [from, to],
        )
        await page.evaluate(() => navigator.clipboard.writeText(''))
        await page.keyboard.press('Control+C')
        return page.evaluate(() => navigator.clipboard.readText())
      }
      const on = (n: number, word: number) => `.image-page[data-page-number="${n}"] .image-text span[data-word="${word}"]`
      expect(await copied(on(1, 0), on(1, 7))).toBe(SENTENCE)
      expect(await copied(on(1, 2), on(1, 4))).toBe('and desktops use')
      expect(await copied(on(1, 6), on(2, 1))).toBe('MIME system\nSecond page')
    } finally {
      await context.close()
    }
  })
})
