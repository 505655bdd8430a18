import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import type { DeliveryDto, WebhookDto } from '../../src/routes/webhooks/model'
import { startReceiver } from '../support/webhook-receiver'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, SCREENSHOTS, watchedPage, type Watched } from './browser'

// The Webhooks page in Chromium, against the compiled binary's real webhooks API and dispatcher, with a real
// receiver on loopback (allowed by PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1).
const app = useBinaryApp({ name: 'webhooks', user: 'omar', env: { PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' } })
const { json } = app

const receiver = startReceiver()
const hookUrl = receiver.url('/pdfshare-hook')

const unexpected = (watched: Watched) => watched.consoleErrors

async function openWebhooks(page: Page) {
  await app.signIn(page)
  await page.getByRole('link', { name: 'Webhooks' }).click()
  await page.getByRole('heading', { name: 'Your webhooks' }).waitFor()
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id)

describe('the Webhooks page', () => {
  test('create (the secret shown once) → send a test event → the receiver gets it signed and the log says delivered → delete', async () => {
    const watched = await watchedPage(app.browser)
    const { page } = watched
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url })
    await openWebhooks(page)
    expect(await page.title()).toBe('Webhooks · pdfshare')
    expect(await page.getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe('page')
    await page.getByText('No webhooks yet').waitFor()

    // The URL and the events: file.uploaded on top of the two reader events checked by default.
    await page.getByLabel('URL').fill(hookUrl)
    const uploaded = page.getByRole('checkbox', { name: /file\.uploaded/ })
    expect(await uploaded.isChecked()).toBe(false)
    expect(await page.getByRole('checkbox', { name: /link\.viewed/ }).isChecked()).toBe(true)
    await uploaded.check()
    await page.getByRole('button', { name: 'Create the webhook' }).click()

    // The secret, once, with a copy button and the warning; it has the focus.
    const secretField = page.getByLabel(/^Signing secret of/)
    await secretField.waitFor()
    const secret = await secretField.inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(await page.locator('.created-secret').textContent()).toContain('you will not see it again')
    await eventually(async () => expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe(secret))
    await page.getByRole('button', { name: 'Copy the secret' }).click()
    await eventually(async () => expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret))
    const listed = await json<WebhookDto[]>('/webhooks')
    expect(listed.map((webhook) => [webhook.url, [...webhook.events].sort()])).toEqual([
      [hookUrl, ['file.uploaded', 'link.downloaded', 'link.viewed']],
    ])
    expect(JSON.stringify(listed)).not.toContain(secret)
    await expectAccessible(page, 'webhooks page with a new secret, light')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-webhooks-desktop.png'), fullPage: true })

    // Done, or coming back later: the secret is not on the page any more.
    await page.getByRole('button', { name: 'Done' }).click()
    await page.reload()
    await page.getByRole('heading', { name: hookUrl }).waitFor()
    expect(await page.content()).not.toContain(secret)
    const item = page.locator('li.webhook', { has: page.getByRole('heading', { name: hookUrl }) })
    await item.getByText('Nothing sent yet').waitFor()

    // The test event reaches the receiver, signed with that secret, and the log shows it delivered.
    await item.getByRole('button', { name: /^Send test event/ }).click()
    await eventually(() => expect(receiver.at('/pdfshare-hook').length).toBe(1), 20_000)
    const delivery = receiver.at('/pdfshare-hook')[0]!
    // Verified with the convention's own library, under the secret the page showed.
    expect((new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string }).type).toBe('webhook.test')
    const row = item.locator('table.deliveries tbody tr')
    await eventually(async () => expect(await row.getAttribute('data-status')).toBe('delivered'), 20_000)
    expect(await row.locator('td').nth(0).textContent()).toBe('webhook.test')
    expect(await row.locator('td').nth(1).textContent()).toBe('Delivered')
    expect(await row.locator('td').nth(2).textContent()).toBe('1')
    expect(await row.locator('td').nth(3).textContent()).toContain('HTTP 204')
    const log = await json<DeliveryDto[]>(`/webhooks/${listed[0]!.id}/deliveries`)
    expect(log.map((entry) => [entry.id, entry.status, entry.attempts])).toEqual([[delivery.headers['webhook-id']!, 'delivered', 1]])

    // Delete: "Keep it" keeps it; confirmed, it is gone here and in the API, and the focus is on the list.
    await item.getByRole('button', { name: /^Delete…/ }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Keep it' }).click()
    expect((await json<WebhookDto[]>('/webhooks')).length).toBe(1)
    await item.getByRole('button', { name: /^Delete…/ }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the webhook' }).click()
    await eventually(async () => expect(await item.count()).toBe(0))
    expect(await json<WebhookDto[]>('/webhooks')).toEqual([])
    await eventually(async () => expect(await focusedId(page)).toBe('webhooks-heading'))

    expect(unexpected(watched)).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  }, 180_000)

  test('a refused URL shows the API’s reason next to the form; no serious accessibility finding in dark mode on a phone', async () => {
    const watched = await watchedPage(app.browser, { width: 360, height: 740, colorScheme: 'dark' })
    const { page } = watched
    await openWebhooks(page)
    await page.getByLabel('URL').fill('ftp://files.example.org/drop')
    await page.getByRole('button', { name: 'Create the webhook' }).click()
    await eventually(async () => expect((await page.locator('.webhook-form [role="alert"]').textContent())?.length).toBeGreaterThan(0))
    expect(await json<WebhookDto[]>('/webhooks')).toEqual([])
    // No events chosen: nothing to send, so nothing to create.
    for (const box of await page.getByRole('checkbox').all()) await box.uncheck()
    expect(await page.getByRole('button', { name: 'Create the webhook' }).isDisabled()).toBe(true)
    await expectAccessible(page, 'webhooks page, dark phone')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-webhooks-phone-dark.png'), fullPage: true })
    expect(watched.consoleErrors.filter((line) => !/status of 400/.test(line))).toEqual([])
    await page.context().close()
  }, 180_000)
})
