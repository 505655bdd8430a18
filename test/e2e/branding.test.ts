import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { makePdf } from '../../scripts/support/pdf'
import type { BrandingDto } from '../../src/routes/branding/model'
import type { LinkDto } from '../../src/routes/links/model'
import { uploadPdfTo } from '../support/uploads'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, firstPageInk, SCREENSHOTS, watchedPage } from './browser'

// Branding in Chromium against the compiled binary (docs/operations.md, Branding): an admin sets the name, the
// accent and a logo on the Admin page; the share page and its password page show them, in the accent's colours,
// with the page's strict CSP and without a single violation.
const app = useBinaryApp({ name: 'branding', user: 'brand-admin', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-e2e-logo-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The share page on the address the binary listens on. */
const served = (url: string) => `${app.server.url}${new URL(url).pathname}`
const ACCENT = '#0b6e4f'

describe('branding', () => {
  test('the Admin page sets a name, an accent and a logo; the share page and its password page show them', async () => {
    const logo = join(dir, 'acme.png')
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="150"><rect width="150" height="150" rx="30" fill="${ACCENT}"/><text x="170" y="105" font-size="90" font-family="sans-serif" fill="#222">ACME</text></svg>`
    writeFileSync(logo, await sharp(Buffer.from(svg)).png().toBuffer())

    const admin = await watchedPage(app.browser)
    await app.signIn(admin.page)
    await admin.page.locator('tbody tr, .empty').first().waitFor()
    await admin.page.goto(`${app.server.url}/app#/admin`)
    const card = admin.page.locator('section.branding')
    await card.getByLabel('Instance name').fill('Acme Legal')
    await card.getByRole('textbox', { name: 'Accent colour', exact: true }).fill(ACCENT)
    await card.getByRole('button', { name: 'Save the branding' }).click()
    await eventually(async () =>
      expect(await app.json<BrandingDto>('/admin/branding')).toMatchObject({ name: 'Acme Legal', accent: ACCENT }),
    )
    await admin.page.locator('#brand-logo-file').setInputFiles(logo)
    await card.locator('.logo-preview img').waitFor()
    const branding = await app.json<BrandingDto>('/admin/branding')
    expect(branding.logo).toMatchObject({ width: 576, height: 144 })
    await expectAccessible(admin.page, 'the Admin page with its Branding card')
    await admin.page.screenshot({ path: `${SCREENSHOTS}/branding-admin.png`, fullPage: true })
    // After a reload the dashboard itself wears it: the header, the title.
    await admin.page.reload()
    await admin.page.locator('header.top .brand img').waitFor()
    expect(await admin.page.locator('header.top .brand').textContent()).toBe('Acme Legal')
    expect(await admin.page.title()).toBe('Admin · Acme Legal')
    expect(admin.consoleErrors).toEqual([])

    const pdf = makePdf({ pages: 2, text: (p) => `Engagement letter, page ${p}` })
    const file = await uploadPdfTo(app.server.url, app.token, pdf, { title: 'Engagement letter' })
    for (const scheme of ['light', 'dark'] as const) {
      const reader = await watchedPage(app.browser, { colorScheme: scheme })
      await reader.page.goto(served(file.shareUrl))
      expect(await firstPageInk(reader.page)).toBeGreaterThan(0)
      expect(await reader.page.locator('.toolbar .brand-name').textContent()).toBe('Acme Legal')
      expect(await reader.page.locator('.toolbar .brand-logo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(576)
      const button = await reader.page.locator('#download').evaluate((element) => getComputedStyle(element).backgroundColor)
      expect(button).toBe(scheme === 'light' ? 'rgb(11, 110, 79)' : rgbOf(branding.accentDark!))
      expect(await reader.cspViolations()).toEqual([])
      expect(reader.consoleErrors).toEqual([])
      await reader.page.screenshot({ path: `${SCREENSHOTS}/branding-viewer-${scheme}.png` })
      await reader.page.context().close()
    }

    const link = await app.json<LinkDto>(`/files/${file.id}/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'engagement' }),
    })
    const gate = await watchedPage(app.browser)
    await gate.page.goto(served(link.url))
    await gate.page.locator('.brand-bar .brand-logo').waitFor()
    expect(await gate.page.locator('.brand-bar').textContent()).toBe('Acme Legal')
    expect(await gate.page.getByRole('button', { name: 'Open' }).evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      'rgb(11, 110, 79)',
    )
    expect(await gate.cspViolations()).toEqual([])
    await expectAccessible(gate.page, 'a branded password page')
    await gate.page.screenshot({ path: `${SCREENSHOTS}/branding-password-page.png` })
    await gate.page.context().close()
    await admin.page.context().close()
  })
})

function rgbOf(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16)
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`
}
