import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import sharp from 'sharp'
import { readPageText } from '../../src/core/previews/page-text'
import { loadRenderEngine, withPdfium } from '../../src/core/previews/render-first-page'
import { makePdf } from '../../scripts/support/pdf'
import { form } from '../support/harness'
import { useBinaryApp } from './binary-app'
import { SCREENSHOTS } from './browser'

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.7339.80 Safari/537.36'

// Watermarks per reader, in Chromium against the compiled binary: two readers of one watermarked link see page
// images that differ where the watermark is, and the PDF a reader downloads carries their watermark as text.
// Page 1 is drawn ahead (the default) while the readers ask for it: a reader's drawing of it and the one drawn ahead
// differ by a pixel, and a watermark once drawn for the one and laid over the other made page 1 a 503 for ever.
const app = useBinaryApp({ name: 'watermarks', user: 'watermark-owner', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })

/** One reader: opens the link in a context of their own; page 1's image as the browser received it, and their visit. */
async function readPageOne(context: BrowserContext, url: string, screenshot?: string) {
  const page = await context.newPage()
  const answered = page.waitForResponse((answer) => /\/pages\/1\?w=\d+$/.test(answer.url()) && answer.status() === 200)
  await page.goto(url)
  const image = await (await answered).body()
  await page.waitForFunction(() => document.getElementById('app')?.dataset.firstPageMs)
  const shown = page.locator('.image-page[data-page-number="1"] img')
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  if (screenshot) await page.screenshot({ path: join(SCREENSHOTS, screenshot) })
  const visit = (await context.cookies()).find((cookie) => cookie.name === 'pdfshare_visit')?.value.split('.')[0]
  return { page, image, visit: visit! }
}

describe('a watermarked link, in Chromium', () => {
  test("two readers' page images differ where the watermark is; the downloaded PDF carries the reader's watermark", async () => {
    const upload = await app.api('/files/upload', {
      method: 'POST',
      body: form({ bytes: makePdf({ pages: 3, text: (p) => `Board minutes, page ${p}` }) }),
    })
    const fileId = (await upload.json()).data.id
    const created = await app.api(`/files/${fileId}/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Board', watermark: 'Reader {visit} · {date}' }),
    })
    expect(created.status).toBe(201)
    const url = (await created.json()).data.url.replace(/^https?:\/\/[^/]+/, app.server.url)
    // A browser that says it is headless is a bot to the view counter, and a bot's visit is not recorded; two
    // browsers alike on one address are one visitor to it (and share a visit), so the second is another version.
    const [first, second] = [
      await app.browser.newContext({ userAgent: CHROME }),
      await app.browser.newContext({ userAgent: CHROME.replace('Chrome/140', 'Chrome/141'), acceptDownloads: true }),
    ]
    try {
      const alice = await readPageOne(first, url, 'watermark-reader.png')
      const bob = await readPageOne(second, url)
      expect(alice.visit).toBeTruthy()
      expect(alice.visit).not.toBe(bob.visit)
      // The same page at the same width, drawn for two readers: the same size, different pixels.
      const [a, b] = await Promise.all([alice.image, bob.image].map((image) => sharp(image).raw().toBuffer({ resolveWithObject: true })))
      expect([a!.info.width, a!.info.height]).toEqual([b!.info.width, b!.info.height])
      let differing = 0
      for (let i = 0; i < a!.data.length; i++) if (a!.data[i] !== b!.data[i]) differing++
      expect(differing).toBeGreaterThan(100)
      // Bob downloads it: his copy has his watermark on every page, as text, beside the page's own words.
      const [download] = await Promise.all([bob.page.waitForEvent('download'), bob.page.locator('#download').click()])
      const text = await withPdfium(await loadRenderEngine(), (await download.path())!, 256 * 1024 * 1024, async (document) =>
        [0, 1, 2].map((index) =>
          readPageText(document.getPage(index))
            .words.map((word) => word[4])
            .join(' '),
        ),
      )
      const today = new Date().toISOString().slice(0, 10)
      for (const [index, words] of text.entries()) {
        expect(words).toContain(`Board minutes, page ${index + 1}`)
        expect(words).toContain(`Reader ${bob.visit} · ${today}`)
        expect(words).not.toContain(alice.visit)
      }
    } finally {
      await first.close()
      await second.close()
    }
  }, 180_000)
})
