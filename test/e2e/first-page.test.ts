import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import sharp from 'sharp'
import { makePdf } from '../../scripts/support/pdf'
import { form } from '../support/harness'
import { shareUrlOn } from '../support/share-paths'
import { useBinaryApp } from './binary-app'
import { SCREENSHOTS } from './browser'

// Page 1 at once (docs/share-page.md), in Chromium against the compiled binary: page 1 drawn ahead by the server
// is on screen before any script runs, and pdf.js takes over in the same place.
const app = useBinaryApp({ name: 'first-page', user: 'first-page-owner', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })

/** Uploads a PDF and waits until its share page names page 1's image (drawn ahead in the background). */
async function sharedWithFirstPage(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const { data } = await (await app.api('/files/upload', { method: 'POST', body: form({ bytes }) })).json()
  const url = shareUrlOn(app.server.url, data)
  // Every 100 ms for up to 150 s: the renderers work at a lower priority than anything else on a busy machine.
  for (let tries = 0; tries < 1500; tries++) {
    if ((await (await fetch(url)).text()).includes('id="first-page"')) return url
    await Bun.sleep(100)
  }
  throw new Error('page 1 was not drawn ahead in 150 s')
}

/** Dark pixels in a screenshot of an element: there is a page with text on it, not blank paper. */
async function inkOf(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true })
  let ink = 0
  for (let i = 0; i < info.width * info.height; i++) if (data[i]! < 128) ink++
  return ink
}

describe('page 1 at once, in Chromium', () => {
  test('with scripts blocked, page 1 is on screen, drawn by the server, in the viewport', async () => {
    const url = await sharedWithFirstPage(
      makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped', text: (p) => `Sixty, page ${p}` }),
    )
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 860 }, javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      const fetched: string[] = []
      page.on('response', (response) => fetched.push(new URL(response.url()).pathname))
      await page.goto(url)
      const image = page.locator('#first-page img')
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('#first-page img')
        return img?.complete && img.naturalWidth > 0
      })
      const box = (await image.boundingBox())!
      expect(box.y).toBeLessThan(100) // just under the toolbar
      expect(box.width).toBe(1002) // Letter at pdf.js's auto zoom, less its borders
      expect(await inkOf(await image.screenshot())).toBeGreaterThan(100)
      await page.screenshot({ path: join(SCREENSHOTS, 'first-page-no-scripts.png') })
      // Nothing but the page, its stylesheet, page 1's image and the icon: no script, no PDF.
      expect(fetched.some((path) => path.endsWith('/file') || path.endsWith('.js') || path.endsWith('.mjs'))).toBe(false)
      expect(fetched.some((path) => path.includes('/pages/1'))).toBe(true)
      const note = page.locator('.noscript-bar')
      expect(await note.textContent()).toStartWith('Page 1 is shown; the other pages need JavaScript.')
      expect((await note.boundingBox())!.y).toBeGreaterThan(800) // below the page, not over it
    } finally {
      await context.close()
    }
  }, 180_000)

  test("with scripts, pdf.js draws page 1 where the server's image was, then the image goes", async () => {
    const url = await sharedWithFirstPage(makePdf({ pages: 3, text: (p) => `Three, page ${p}` }))
    for (const viewport of [
      { width: 1280, height: 860 },
      { width: 390, height: 800 },
    ]) {
      const context = await app.browser.newContext({ viewport })
      try {
        const page = await context.newPage()
        // Where the server's page 1 is, read as soon as it is laid out (before pdf.js can have replaced it).
        await page.addInitScript(() => {
          document.addEventListener('DOMContentLoaded', () => {
            const rect = document.querySelector('#first-page img')?.getBoundingClientRect()
            ;(window as { serverPage?: number[] }).serverPage = rect ? [rect.x, rect.y, rect.width] : []
          })
        })
        await page.goto(url)
        await page.waitForFunction(() => document.getElementById('app')?.dataset.firstPageMs)
        await page.waitForFunction(() => !document.getElementById('first-page'))
        const server = await page.evaluate(() => (window as { serverPage?: number[] }).serverPage!)
        const canvas = (await page.locator('.page[data-page-number="1"] canvas').boundingBox())!
        expect(server).toHaveLength(3)
        // The same place and width, to the pixel's rounding: nothing moved at the hand-over.
        expect(Math.abs(canvas.x - server[0]!)).toBeLessThanOrEqual(1)
        expect(Math.abs(canvas.y - server[1]!)).toBeLessThanOrEqual(1)
        expect(Math.abs(canvas.width - server[2]!)).toBeLessThanOrEqual(1.5)
        // The spinner never covered it, and pdf.js's page 1 has its text.
        expect(await page.locator('#status').isHidden()).toBe(true)
        await page.waitForFunction(() =>
          document.querySelector('.page[data-page-number="1"] .textLayer')?.textContent?.includes('Three, page 1'),
        )
      } finally {
        await context.close()
      }
    }
  }, 180_000)
})
