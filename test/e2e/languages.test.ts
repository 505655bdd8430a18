import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import { form } from '../support/harness'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, SCREENSHOTS } from './browser'

// The reader's pages in the reader's language (docs/languages.md), in Chromium against the compiled binary: the
// browser's locale is its Accept-Language. German pages and password gate, Arabic right to left with the toolbar
// mirrored and the pages not, the picker switching and remembering, a date the Japanese way; axe on the share page
// and a gate in several languages.
const app = useBinaryApp({ name: 'languages', user: 'language-owner', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
/** Headless Chromium says so in its User-Agent (a bot to the view counter): readers here say they are plain Chrome. */
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
const TITLE = 'Annual report'

type Link = { id: string; url: string }
const served = (url: string) => `${app.server.url}${new URL(url).pathname}`
let fileId = ''
async function newLink(body: Record<string, unknown> = {}): Promise<string> {
  if (!fileId) {
    const upload = await app.api('/files/upload', {
      method: 'POST',
      body: form({ bytes: makePdf({ pages: 3, text: (p) => `Annual report, page ${p}` }), name: 'annual.pdf' }, { title: TITLE }),
    })
    expect(upload.status).toBe(201)
    fileId = (await upload.json()).data.id
  }
  const link = await app.json<Link>(`/files/${fileId}/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return served(link.url)
}

async function readerIn(locale: string, width = 1100): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({ locale, userAgent: CHROME, viewport: { width, height: 800 } })
  return { context, page: await context.newPage() }
}
/** The viewer is up: pdf.js counted the pages (the toolbar is enabled). */
const viewerReady = (page: Page) => page.locator('#page-count', { hasText: '3' }).waitFor({ timeout: 60_000 })

describe("the reader's pages in the reader's language, in Chromium", () => {
  test('locale de: the share page, its viewer and its password gate are German, and fit a 360 px phone', async () => {
    const url = await newLink()
    const { context, page } = await readerIn('de-DE')
    try {
      await page.goto(url)
      expect(await page.locator('html').getAttribute('lang')).toBe('de')
      await page.getByRole('button', { name: 'Vorherige Seite' }).waitFor()
      await viewerReady(page)
      // The viewer script's words came with the page, in German.
      await page.getByRole('button', { name: 'Im Dokument suchen' }).click()
      await page.getByPlaceholder('Im Dokument suchen').fill('zzzzqqq')
      await page.locator('#find-result', { hasText: 'Nicht gefunden' }).waitFor()
      await page.keyboard.press('Escape')
      await page.screenshot({ path: join(SCREENSHOTS, 'languages-de.png') })
      await expectAccessible(page, 'share page, de')

      const locked = await newLink({ password: 'open sesame' })
      await page.goto(locked)
      await page.getByText('Passwort erforderlich', { exact: true }).waitFor()
      await expectAccessible(page, 'password gate, de')
      await page.getByLabel('Passwort').fill('wrong one')
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Öffnen' }).click()])
      await page.getByText('Falsches Passwort. Versuchen Sie es erneut.').waitFor()
      await page.getByLabel('Passwort').fill('open sesame')
      await Promise.all([page.waitForURL(locked), page.getByRole('button', { name: 'Öffnen' }).click()])
      await page.getByRole('button', { name: 'Nächste Seite' }).waitFor()

      // At 360 px the German toolbar, its picker included, stays on the screen.
      await page.setViewportSize({ width: 360, height: 740 })
      await page.goto(url)
      await viewerReady(page)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      const picker = await page.locator('.toolbar .language-picker summary').boundingBox()
      expect(picker!.x + picker!.width).toBeLessThanOrEqual(360)
    } finally {
      await context.close()
    }
  })

  test('locale ar: dir=rtl, the toolbar mirrored, the pages not; the gate is clean for axe', async () => {
    const url = await newLink()
    const { context, page } = await readerIn('ar-EG')
    try {
      await page.goto(url)
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
      await viewerReady(page)
      // The first control of the toolbar in its markup (previous page) is at the right, the last (the picker) at the left.
      const first = (await page.locator('#previous-page').boundingBox())!
      const last = (await page.locator('.toolbar .language-picker summary').boundingBox())!
      expect(first.x).toBeGreaterThan(last.x + last.width)
      // The previous page's arrow points right, the way an Arabic page turns back.
      expect(await page.locator('#previous-page svg').evaluate((svg) => getComputedStyle(svg).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)')
      // The document keeps its own direction: its pages and their text layer are laid out as the PDF is.
      expect(await page.locator('#viewer-container').evaluate((element) => getComputedStyle(element).direction)).toBe('ltr')
      await page.screenshot({ path: join(SCREENSHOTS, 'languages-ar.png') })
      await expectAccessible(page, 'share page, ar')
      const asking = await newLink({ access: 'email' })
      await page.goto(asking)
      await page.getByLabel('عنوان البريد الإلكتروني', { exact: true }).waitFor()
      await expectAccessible(page, 'address gate, ar')
    } finally {
      await context.close()
    }
  })

  test('the picker switches the language, and the cookie remembers it on the next visit', async () => {
    const url = await newLink()
    const { context, page } = await readerIn('en-US')
    try {
      await page.goto(url)
      expect(await page.locator('html').getAttribute('lang')).toBe('en')
      await page.locator('.toolbar .language-picker summary').click()
      await Promise.all([page.waitForURL(url), page.getByRole('link', { name: 'Français' }).click()])
      expect(await page.locator('html').getAttribute('lang')).toBe('fr')
      await page.getByRole('button', { name: 'Page précédente' }).waitFor()
      expect((await context.cookies()).find((cookie) => cookie.name === 'pdfshare_lang')?.value).toBe('fr')
      // Another page of the site, another visit: still French, though the browser asks for English.
      const other = await newLink({ password: 'open sesame' })
      await page.goto(other)
      await page.getByText('Mot de passe requis', { exact: true }).waitFor()
      await expectAccessible(page, 'password gate, fr')
    } finally {
      await context.close()
    }
  })

  test('locale ja: an expired link names the day it ended the Japanese way', async () => {
    const expiresAt = Date.now() + 2_000
    const url = await newLink({ expiresAt: new Date(expiresAt).toISOString() })
    const { context, page } = await readerIn('ja-JP')
    try {
      await eventually(async () => {
        const answer = await page.goto(url)
        expect(answer?.status()).toBe(410)
      }, 20_000)
      expect(await page.locator('html').getAttribute('lang')).toBe('ja')
      const day = new Intl.DateTimeFormat('ja', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(expiresAt)
      expect(day).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/)
      await page.getByText(`このリンクは ${day} に有効期限が切れました。`).waitFor()
      await page.screenshot({ path: join(SCREENSHOTS, 'languages-ja.png') })
      await expectAccessible(page, '410 page, ja')
      const open = await newLink()
      await page.goto(open)
      await viewerReady(page)
      await expectAccessible(page, 'share page, ja')
    } finally {
      await context.close()
    }
  })
})
