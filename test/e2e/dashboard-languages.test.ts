import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import { form } from '../support/harness'
import { useBinaryApp } from './binary-app'
import { SCREENSHOTS } from './browser'

// The dashboard in the owner's language (docs/languages.md, The dashboard), in Chromium against the compiled binary:
// the browser's locale is its Accept-Language. German words, a date through Intl and the navigation on a 360 px
// phone; Arabic right to left with the navigation mirrored; the footer's picker switching and remembering; the
// account's own language for its mails, chosen on the Account page.
const app = useBinaryApp({ name: 'dashboard-languages', user: 'dana' })

async function ownerIn(locale: string, width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({ locale, timezoneId: 'UTC', viewport: { width, height: 800 } })
  return { context, page: await context.newPage() }
}

/** Signs in with the API token through the sign-in page's words in `words`' language. */
async function signIn(page: Page, words: { toToken: string; token: string; submit: string }) {
  await page.goto(`${app.server.url}/app`)
  await page.getByRole('button', { name: words.toToken }).click()
  await page.getByLabel(words.token, { exact: true }).fill(app.token)
  await page.getByRole('button', { name: words.submit, exact: true }).click()
}

describe('the dashboard in the owner’s language, in Chromium', () => {
  test('locale de: German words, a German date, and the German navigation fits a 360 px phone', async () => {
    const upload = await app.api('/files/upload', {
      method: 'POST',
      body: form({ bytes: makePdf({ pages: 1 }), name: 'bericht.pdf' }, { title: 'Jahresbericht' }),
    })
    expect(upload.status).toBe(201)
    const created: string = (await upload.json()).data.createdAt
    const { context, page } = await ownerIn('de-DE', 360)
    try {
      await signIn(page, { toToken: 'Stattdessen ein API-Token verwenden', token: 'API-Token', submit: 'Anmelden' })
      expect(await page.locator('html').getAttribute('lang')).toBe('de')
      expect(await page.locator('html').getAttribute('dir')).toBe('ltr')
      await page.getByRole('heading', { level: 1, name: 'Dateien' }).waitFor()
      await page.getByRole('link', { name: 'Jahresbericht' }).waitFor()
      expect(await page.getByRole('button', { name: 'PDFs hochladen' }).count()).toBe(1)
      // The day the file was made, as Intl writes it in German ("29.11.2026, 09:05").
      const date = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(created))
      await page.getByText(`Erstellt ${date}`).waitFor()
      expect(await page.title()).toStartWith('Dateien · ')

      // Every German item of the navigation is on the 360 px screen, whole and on top, and nothing scrolls sideways.
      const nav = page.getByRole('navigation', { name: 'Hauptmenü' })
      await nav.getByRole('link', { name: 'Verwaltung' }).waitFor()
      const items = ['Dateien', 'Räume', 'Anfragen', 'Benachrichtigungen', 'Teams', 'Webhooks', 'Aktivität', 'Konto', 'Verwaltung']
      expect(await nav.getByRole('link').allTextContents()).toEqual(items)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
      for (const name of items) {
        const box = (await nav.getByRole('link', { name, exact: true }).boundingBox())!
        expect(box.x, name).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, name).toBeLessThanOrEqual(360)
      }
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-de-360.png') })
    } finally {
      await context.close()
    }
  })

  test('locale ar: the dashboard is right to left, its navigation mirrored', async () => {
    const { context, page } = await ownerIn('ar', 1100)
    try {
      await signIn(page, { toToken: 'استخدم رمز API مميزًا بدلًا من ذلك', token: 'رمز API المميز', submit: 'تسجيل الدخول' })
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
      expect(await page.locator('html').getAttribute('lang')).toBe('ar')
      const nav = page.getByRole('navigation', { name: 'الرئيسية' })
      await page.getByRole('heading', { level: 1, name: 'الملفات' }).waitFor()
      // The first item (Files) is the rightmost: the row reads from the right.
      const first = (await nav.getByRole('link', { name: 'الملفات' }).boundingBox())!
      const second = (await nav.getByRole('link', { name: 'الغرف' }).boundingBox())!
      expect(first.x).toBeGreaterThan(second.x)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1100)
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-ar.png') })
    } finally {
      await context.close()
    }
  })

  test('the picker switches the language, keeps the page and the session, and is remembered', async () => {
    const { context, page } = await ownerIn('de-DE', 1100)
    try {
      await signIn(page, { toToken: 'Stattdessen ein API-Token verwenden', token: 'API-Token', submit: 'Anmelden' })
      await page.getByRole('link', { name: 'Konto', exact: true }).click()
      await page.waitForURL(/#\/account$/)
      await page.getByText('Sprache: Deutsch').click()
      await Promise.all([page.waitForURL(/\/app#\/account$/), page.getByRole('link', { name: 'Français' }).click()])
      expect(await page.locator('html').getAttribute('lang')).toBe('fr')
      // Still signed in (the tab's session), on the same page, in French.
      await page.getByRole('link', { name: 'Compte', exact: true }).waitFor()
      expect(await page.getByRole('link', { name: 'Compte', exact: true }).getAttribute('aria-current')).toBe('page')
      // The account's own language for its mails is another thing than the page's: chosen on the same page, saved at once.
      await page.getByRole('combobox', { name: 'Langue', exact: true }).selectOption('de')
      await page.getByText('La langue de vos e-mails a été enregistrée').waitFor()
      expect((await (await app.api('/me')).json()).data.language).toBe('de')
      expect(await page.locator('html').getAttribute('lang')).toBe('fr')
      // Remembered: the cookie beats the browser's German, in another tab too (signed out there: a session is a tab's).
      const again = await context.newPage()
      await again.goto(`${app.server.url}/app`)
      expect(await again.locator('html').getAttribute('lang')).toBe('fr')
      await again.getByRole('heading', { level: 2, name: 'Connexion' }).waitFor()
    } finally {
      await context.close()
    }
  })
})
