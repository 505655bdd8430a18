import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, SCREENSHOTS, watchedPage, type Watched } from './browser'

// A file's Links and Versions panels in Chromium, against the compiled binary's real API.
const app = useBinaryApp({ name: 'links', user: 'lena', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
const { json } = app

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

type Owned = { id: string; sha256: string; filename: string }
type Link = {
  id: string
  url: string
  label: string
  hasPassword: boolean
  maxViews: number | null
  expiresAt: string | null
  state: string
}
type Version = { id: string; current: boolean; sha256: string; filename: string }

/** Multipart like `curl -F file=@NAME`: POST a new file, or PUT to replace one. */
function sendPdf(method: 'POST' | 'PUT', path: string, name: string, bytes: Uint8Array<ArrayBuffer>) {
  const form = new FormData()
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), name)
  return json<Owned>(path, { method, body: form })
}

/** The link as the binary serves it here (the public URL is localhost, maybe another port). */
const served = (url: string) => `${app.server.url}${new URL(url).pathname}`

/** The server's refusal of a too-short password, provoked on purpose. */
const EXPECTED = [/status of 400/]
const unexpected = (watched: Watched) => watched.consoleErrors.filter((line) => !EXPECTED.some((pattern) => pattern.test(line)))

/** Signs in with the API token and opens the file's page. */
async function openFile(page: Page, fileId: string) {
  await app.signIn(page)
  await page.locator('tbody tr').first().waitFor()
  await page.goto(`${app.server.url}/app#/files/${fileId}`)
  await page.getByRole('heading', { name: 'Links' }).waitFor()
}

/** Focus moves in an effect, after the next paint: read it with `eventually`. */
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id)

const item = (page: Page, name: string) => page.locator('.link-item', { has: page.getByRole('heading', { name, exact: true }) })

describe('the Links panel', () => {
  test('create a link with a password and a view limit, copy, QR, edit, turn off and on, delete', async () => {
    const file = await sendPdf('POST', '/files/upload', 'minutes.pdf', makePdf({ pages: 1, text: () => 'Board minutes' }))
    const watched = await watchedPage(app.browser)
    const { page } = watched
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url })
    await openFile(page, file.id)

    // The default link is listed, active, and cannot be deleted.
    const defaultLink = item(page, 'Default link')
    await defaultLink.waitFor()
    expect(await defaultLink.locator('.state').textContent()).toBe('Active')
    expect(await defaultLink.getByRole('button', { name: /^Delete/ }).count()).toBe(0)

    // A password the server refuses: its own message, next to the form.
    await page.getByRole('button', { name: 'New link…' }).click()
    const form = page.locator('.new-link form')
    await eventually(async () => expect(await focusedId(page)).toBe('new-link-label'))
    await form.getByLabel(/^Label/).fill('Board')
    await form.getByLabel('Password').fill('abc')
    await form.getByLabel('View limit').fill('3')
    await form.getByRole('button', { name: 'Create the link' }).click()
    await eventually(async () => expect(await form.getByRole('alert').textContent()).toMatch(/password/i))
    expect((await json<Link[]>(`/files/${file.id}/links`)).length).toBe(1)

    await form.getByLabel('Password').fill('open sesame')
    await form.getByRole('button', { name: 'Create the link' }).click()
    const board = item(page, 'Board')
    await board.waitFor()
    const links = await json<Link[]>(`/files/${file.id}/links`)
    expect(links.length).toBe(2)
    const created = links[1]!
    expect([created.label, created.hasPassword, created.maxViews, created.state]).toEqual(['Board', true, 3, 'active'])
    // The new link takes the focus, and the message is announced.
    await eventually(async () => expect(await focusedId(page)).toBe(`link-${created.id}`))
    await eventually(async () => expect(await page.getByRole('status').textContent()).toContain('Board created'))
    expect(await board.locator('.state').textContent()).toBe('Active')
    expect(await board.locator('.lock').textContent()).toBe('Password')
    expect(await board.locator('.sub').textContent()).toContain('0 views of 3')
    expect(await board.getByRole('link').textContent()).toBe(created.url)

    // Copy and QR.
    await board.getByRole('button', { name: 'Copy the URL of Board' }).click()
    await eventually(async () => expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(created.url))
    expect(await page.getByRole('img', { name: 'QR code of Board' }).count()).toBe(0)
    await board.getByRole('button', { name: 'QR code of Board' }).click()
    await page.getByRole('img', { name: 'QR code of Board' }).waitFor({ state: 'visible' })
    await expectAccessible(page, 'links panel light')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-links-desktop.png'), fullPage: true })

    // Edit: an expiry in two days, typed in the reader's local time.
    await board.getByRole('button', { name: 'Edit Board' }).click()
    const local = await page.evaluate(() => {
      const date = new Date(Date.now() + 2 * 86_400_000)
      date.setSeconds(0, 0)
      const pad = (n: number) => String(n).padStart(2, '0')
      return {
        input: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`,
        iso: date.toISOString(),
      }
    })
    await board.getByLabel('Expires').fill(local.input)
    await board.getByRole('button', { name: 'Save the link' }).click()
    await eventually(async () => expect((await json<Link>(`/links/${created.id}`)).expiresAt).toBe(local.iso))
    await eventually(async () => expect(await board.locator('.sub').textContent()).toContain('expires'))
    await eventually(async () => expect(await focusedId(page)).toBe(`link-edit-${created.id}`))

    // Edit again: clear the view limit and the password.
    await board.getByRole('button', { name: 'Edit Board' }).click()
    expect(await board.getByLabel('Expires').inputValue()).toBe(local.input)
    await board.getByLabel('View limit').fill('')
    await board.getByLabel('Remove the password').check()
    await board.getByRole('button', { name: 'Save the link' }).click()
    await eventually(async () => {
      const link = await json<Link>(`/links/${created.id}`)
      expect([link.maxViews, link.hasPassword, link.expiresAt]).toEqual([null, false, local.iso])
    })
    await eventually(async () => expect(await board.locator('.lock').count()).toBe(0))
    expect(await board.locator('.sub').textContent()).not.toContain(' of 3')

    // Turned off: the badge says so and readers get 410; turned on again: the page is back.
    expect((await fetch(served(created.url))).status).toBe(200)
    await board.getByRole('button', { name: 'Turn off Board' }).click()
    await eventually(async () => expect(await board.locator('.state').textContent()).toBe('Turned off'))
    expect((await fetch(served(created.url))).status).toBe(410)
    expect((await json<Link>(`/links/${created.id}`)).state).toBe('disabled')
    await board.getByRole('button', { name: 'Turn on Board' }).click()
    await eventually(async () => expect(await board.locator('.state').textContent()).toBe('Active'))
    expect((await fetch(served(created.url))).status).toBe(200)

    // Delete: "Keep it" keeps it; confirmed, the link and its address are gone, and the focus is on the list.
    await board.getByRole('button', { name: 'Delete… Board' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Keep it' }).click()
    expect((await json<Link[]>(`/files/${file.id}/links`)).length).toBe(2)
    await board.getByRole('button', { name: 'Delete… Board' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the link' }).click()
    await eventually(async () => expect(await board.count()).toBe(0))
    expect((await json<Link[]>(`/files/${file.id}/links`)).map((link) => link.label)).toEqual([''])
    expect((await fetch(served(created.url))).status).toBe(404)
    await eventually(async () => expect(await focusedId(page)).toBe('links-heading'))

    expect(unexpected(watched)).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  }, 180_000)

  test('no serious accessibility finding with a form open, in dark mode on a phone', async () => {
    const file = await sendPdf('POST', '/files/upload', 'dark.pdf', makePdf({ pages: 1, text: () => 'Dark' }))
    await json<Link>(`/files/${file.id}/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Readers', maxViews: 1, password: 'long enough' }),
    })
    const watched = await watchedPage(app.browser, { width: 360, height: 740, colorScheme: 'dark' })
    const { page } = watched
    await openFile(page, file.id)
    await item(page, 'Readers').waitFor()
    await page.getByRole('button', { name: 'Turn off Readers' }).click()
    await eventually(async () => expect(await item(page, 'Readers').locator('.state').textContent()).toBe('Turned off'))
    await page.getByRole('button', { name: 'New link…' }).click()
    await page.getByRole('heading', { name: 'Versions' }).waitFor()
    await expectAccessible(page, 'links and versions, dark phone')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-links-phone-dark.png'), fullPage: true })
    expect(unexpected(watched)).toEqual([])
    await page.context().close()
  }, 180_000)
})

describe('the Versions panel', () => {
  test('a replacement through the API shows 2 versions; the older one downloads, is restored, then deleted', async () => {
    const firstBytes = makePdf({ pages: 1, text: () => 'First edition' })
    const secondBytes = makePdf({ pages: 2, text: (p) => `Second edition, page ${p}` })
    const file = await sendPdf('POST', '/files/upload', 'handbook.pdf', firstBytes)
    expect(file.sha256).toBe(sha256(firstBytes))
    const replaced = await sendPdf('PUT', `/files/${file.id}`, 'handbook-v2.pdf', secondBytes)
    expect(replaced.sha256).toBe(sha256(secondBytes))

    const watched = await watchedPage(app.browser)
    const { page } = watched
    await openFile(page, file.id)
    const rows = page.locator('.versions tbody tr')
    await eventually(async () => expect(await rows.count()).toBe(2))
    // The current one first, with its short sha256.
    expect(await rows.nth(0).textContent()).toContain('Current')
    expect(await rows.nth(0).locator('code').textContent()).toBe(sha256(secondBytes).slice(0, 12))
    expect(await rows.nth(1).locator('code').textContent()).toBe(sha256(firstBytes).slice(0, 12))
    expect(
      await rows
        .nth(0)
        .getByRole('button', { name: /^Restore/ })
        .count(),
    ).toBe(0)

    // Download the older one: its own name and bytes.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      rows
        .nth(1)
        .getByRole('button', { name: /^Download/ })
        .click(),
    ])
    expect(download.suggestedFilename()).toBe('handbook.pdf')
    expect(sha256(await readFile((await download.path())!))).toBe(sha256(firstBytes))

    // Restore it, after a confirmation: the file's bytes are the first edition's again.
    await rows
      .nth(1)
      .getByRole('button', { name: /^Restore/ })
      .click()
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click()
    await eventually(async () => expect((await json<Owned>(`/files/${file.id}`)).sha256).toBe(sha256(firstBytes)))
    await eventually(async () => expect(await rows.nth(0).locator('code').textContent()).toBe(sha256(firstBytes).slice(0, 12)))
    expect(await rows.count()).toBe(2)
    await eventually(async () => expect(await focusedId(page)).toBe('versions-heading'))

    // Delete the older one (now the second edition).
    await rows
      .nth(1)
      .getByRole('button', { name: /^Delete/ })
      .click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the version' }).click()
    await eventually(async () => expect(await rows.count()).toBe(1))
    const versions = await json<Version[]>(`/files/${file.id}/versions`)
    expect(versions.map((version) => [version.current, version.sha256])).toEqual([[true, sha256(firstBytes)]])

    expect(unexpected(watched)).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  }, 180_000)
})
