import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import type { Browser, Page } from 'playwright-core'
import { bearer } from '../support/bearer'
import { makePdf } from '../../scripts/support/pdf'
import { ROOT, run, startServer, type RunningServer } from '../../scripts/support/process'
import { accessibilityFindings, expectAccessible } from './accessibility'
import { eventually, firstPageInk, launchChromium, SCREENSHOTS, watchedPage, type Watched } from './browser'

// The owner's dashboard in Chromium, served by the compiled binary: the main journey a new user takes.
const binarySource = join(ROOT, 'dist', 'pdfshare')
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-e2e-dashboard-'))
let server: RunningServer
let browser: Browser
let apiToken: string
const PASSWORD = 'a long enough password'
const pdfs = {
  first: join(dir, 'first.pdf'),
  second: join(dir, 'second.pdf'),
  third: join(dir, 'third.pdf'),
  notPdf: join(dir, 'notes.pdf'),
  replacement: join(dir, 'replacement.pdf'),
}

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api${path}`, { ...init, headers: { ...bearer(token), ...init.headers } })

beforeAll(async () => {
  if (!existsSync(binarySource)) throw new Error('dist/pdfshare is missing: run `bun run build` (bun run test does)')
  const binary = join(dir, 'pdfshare')
  copyFileSync(binarySource, binary)
  await run(['user', 'add', 'dana', '--password-stdin'], { cwd: dir, program: [binary], stdin: `${PASSWORD}\n` })
  // Two files at most, so the third upload shows the API's quota message.
  await run(['user', 'quota', 'dana', '--max-files', '2'], { cwd: dir, program: [binary] })
  apiToken = (await run(['token', 'issue', 'dana', '--label', 'laptop'], { cwd: dir, program: [binary] })).stdout.trim()
  writeFileSync(pdfs.first, makePdf({ pages: 2, text: (p) => `First document, page ${p}` }))
  // Big enough that its progress can be watched while the browser's upload is throttled.
  writeFileSync(pdfs.second, makePdf({ pages: 8, imageBytesPerPage: 250_000, text: (p) => `Second document, page ${p}` }))
  writeFileSync(pdfs.third, makePdf({ pages: 1, text: () => 'One too many' }))
  writeFileSync(pdfs.notPdf, 'These are plain-text notes, not a PDF.\n')
  writeFileSync(pdfs.replacement, makePdf({ pages: 3, text: (p) => `Replacement edition, page ${p}` }))
  server = await startServer([], { cwd: dir, program: [binary], env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
  browser = await launchChromium()
  console.log(`browser screenshots: ${SCREENSHOTS}`)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** Resource errors the journey provokes on purpose: a wrong password, a non-PDF and an over-quota upload. */
const EXPECTED = [/status of 415/, /status of 403/, /status of 401/]
const unexpected = (watched: Watched) => watched.consoleErrors.filter((line) => !EXPECTED.some((pattern) => pattern.test(line)))

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true })
}

describe('the dashboard in Chromium, served by the compiled binary', () => {
  test('sign in → upload two PDFs with progress → refusals → edit → copy link → viewer → replace → tokens → sign out', async () => {
    const watched = await watchedPage(browser, { width: 1280, height: 860 })
    const { page } = watched
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await page.goto(`${server.url}/app`)
    await shoot(page, 'sign-in-desktop')

    // A wrong password is refused with the API's message; the right one signs in.
    await page.getByLabel('User name').fill('dana')
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await eventually(async () => expect(await page.getByRole('alert').textContent()).toBe('Wrong user name or password'))
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'No PDFs yet' }).waitFor()
    const sessionToken: string = await page.evaluate(() => JSON.parse(sessionStorage.getItem('pdfshare.session')!).token)
    expect((await api('/me', sessionToken)).status).toBe(200)
    await shoot(page, 'files-empty-desktop')

    // Two uploads; the second is throttled so its progress bar is seen between 0 and 100 %.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1_000_000 })
    // Several files queued at once; the one that is not a PDF gets the API's own message.
    await page.getByTestId('upload-input').setInputFiles([pdfs.first, pdfs.notPdf, pdfs.second])
    const second = page.locator('.upload', { hasText: 'second.pdf' })
    const seen = new Set<number>()
    await eventually(async () => {
      const value = Number(await second.locator('progress').getAttribute('value'))
      seen.add(value)
      expect(value > 0 && value < 100).toBe(true)
    }, 20_000)
    expect(await second.locator('.upload-status').textContent()).toMatch(/ of .*%/)
    await eventually(async () => expect(await second.locator('.upload-status').textContent()).toBe('Uploaded'), 30_000)
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    expect(await page.locator('.upload', { hasText: 'first.pdf' }).locator('.upload-status').textContent()).toBe('Uploaded')
    await eventually(async () => expect(await page.locator('tbody tr').count()).toBe(2))

    expect(await page.locator('.upload', { hasText: 'notes.pdf' }).locator('.upload-status').textContent()).toContain('is not a PDF')
    // And for one over the quota.
    await page.getByTestId('upload-input').setInputFiles([pdfs.third])
    await eventually(async () =>
      expect(await page.locator('.upload', { hasText: 'third.pdf' }).locator('.upload-status').textContent()).toMatch(/limit|quota/i),
    )
    await shoot(page, 'files-desktop')
    expect(await page.locator('tbody tr').count()).toBe(2)

    // A file's page: title and both switches.
    await page.getByRole('link', { name: 'first.pdf' }).click()
    await page.getByRole('heading', { name: 'Share' }).waitFor()
    await page.getByLabel(/^Title/).fill('Field notes, spring')
    expect(await page.locator('#title-count').textContent()).toBe('19 / 160')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('heading', { name: 'Field notes, spring' }).waitFor()
    await page.getByRole('switch', { name: 'Readers may download the PDF' }).click({ force: true })
    await page.getByRole('switch', { name: 'Search engines may index the page' }).click({ force: true })
    const fileId = new URL(page.url()).hash.split('/').at(-1)!
    await eventually(async () => {
      const { data } = await (await api(`/files/${fileId}`, apiToken)).json()
      expect([data.title, data.allowDownload, data.searchEngineVisible]).toEqual(['Field notes, spring', false, true])
    })
    const shareUrl: string = (await (await api(`/files/${fileId}`, apiToken)).json()).data.shareUrl

    // Copy the link; the QR code and the link preview are there.
    await page.getByRole('button', { name: 'Copy link' }).click()
    await eventually(async () => expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl))
    expect(await page.getByRole('img', { name: /QR code/ }).count()).toBe(1)
    await eventually(async () =>
      expect(await page.locator('figure img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200),
    )
    await shoot(page, 'file-desktop')

    // The viewer opens in a new tab at the same address (the binary's public URL is localhost).
    const viewerUrl = `${server.url}${new URL(shareUrl).pathname}`
    const [viewer] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Open the viewer' }).click()])
    expect(new URL(viewer.url()).pathname).toBe(new URL(shareUrl).pathname)
    await viewer.goto(viewerUrl)
    // Downloads were just turned off: the pages are drawn by the server, their words laid over them.
    expect(await firstPageInk(viewer)).toBeGreaterThan(0)
    await eventually(async () => expect(await viewer.locator('.image-text').first().textContent()).toContain('First document, page 1'))

    // Replace the PDF: same link, new pages.
    await page.getByTestId('replace-input').setInputFiles(pdfs.replacement)
    await eventually(async () => expect(await page.locator('.notice').last().textContent()).toContain('replaced with replacement.pdf'))
    await viewer.reload()
    expect(await firstPageInk(viewer)).toBeGreaterThan(0)
    await eventually(async () => expect(await viewer.locator('.image-text').first().textContent()).toContain('Replacement edition, page 1'))
    await viewer.close()

    // Account: usage, a new token shown once and working, then revoked.
    await page.getByRole('link', { name: 'Account' }).click()
    await page.getByRole('heading', { name: 'Usage' }).waitFor()
    await page.getByLabel('Label').fill('ci job')
    await page.getByRole('button', { name: 'Create token' }).click()
    const created = await page.getByLabel('The new token').inputValue()
    expect((await api('/me', created)).status).toBe(200)
    await shoot(page, 'account-desktop')
    page.once('dialog', (dialog) => dialog.accept())
    await page.getByRole('button', { name: 'Revoke ci job' }).click()
    await eventually(async () => expect(await page.getByRole('button', { name: 'Revoke ci job' }).count()).toBe(0))
    expect((await api('/me', created)).status).toBe(401)

    // A token that may only read files: it reads them, and its upload is refused with the scope it lacks.
    await page.getByLabel('Label').fill('reader')
    await page.getByRole('radio', { name: 'Only:' }).check()
    await page.getByRole('checkbox', { name: /^files:read / }).check()
    await page.getByRole('button', { name: 'Create token' }).click()
    // The box still shows the revoked token until the new one arrives.
    let reader = created
    await eventually(async () => {
      reader = await page.getByLabel('The new token').inputValue()
      expect(reader).not.toBe(created)
    })
    expect((await api('/files', reader)).status).toBe(200)
    expect((await api('/tokens', reader)).status).toBe(403)
    await eventually(async () => expect(await page.locator('tbody tr', { hasText: 'reader' }).textContent()).toContain('files:read'))

    // Phone size.
    await page.setViewportSize({ width: 360, height: 740 })
    await page.getByRole('link', { name: 'Files' }).click()
    await page.locator('tbody tr').first().waitFor()
    await shoot(page, 'files-phone')
    await page.getByRole('link', { name: 'Field notes, spring' }).click()
    await page.getByRole('heading', { name: 'Share' }).waitFor()
    await shoot(page, 'file-phone')

    // Sign out: back to the sign-in page, and the session's token no longer works anywhere.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    expect((await api('/me', sessionToken)).status).toBe(401)

    expect(unexpected(watched)).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  }, 180_000)

  test('a pasted API token signs in too; signing out leaves it working for scripts', async () => {
    const watched = await watchedPage(browser, { width: 360, height: 740, colorScheme: 'dark' })
    const { page } = watched
    await page.goto(`${server.url}/app`)
    await page.getByRole('button', { name: 'Use an API token instead' }).click()
    await page.getByLabel('API token').fill(apiToken)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('tbody tr').first().waitFor()
    expect(await page.locator('.who').textContent()).toBe('dana')
    await shoot(page, 'files-phone-dark')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    expect((await api('/me', apiToken)).status).toBe(200)
    expect(watched.consoleErrors).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  })

  test('keyboard only: sign in, reach a file and the account; no serious accessibility finding (axe, WCAG 2 AA) in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const watched = await watchedPage(browser, { width: 1280, height: 860, colorScheme })
      const { page } = watched
      await page.goto(`${server.url}/app`)
      await expectAccessible(page, `sign-in ${colorScheme}`)
      // Tab order: user name, password, Sign in.
      await page.keyboard.press('Tab')
      await page.keyboard.type('dana')
      await page.keyboard.press('Tab')
      await page.keyboard.type(PASSWORD)
      await page.keyboard.press('Enter')
      await page.locator('tbody tr').first().waitFor()
      await expectAccessible(page, `files ${colorScheme}`)
      if (colorScheme === 'light') {
        // The checker can fail: a search field without its label is a finding.
        await page.evaluate(() => document.querySelector('label[for="search"]')?.remove())
        expect((await accessibilityFindings(page)).some((finding) => finding.startsWith('label:'))).toBe(true)
        await page.reload()
        await page.locator('tbody tr').first().waitFor()
      }
      await page.keyboard.press('Tab') // skip link first
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
      await page.getByRole('link', { name: 'Field notes, spring' }).focus()
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { name: 'Share' }).waitFor()
      await expectAccessible(page, `file ${colorScheme}`)
      await page.getByRole('link', { name: 'Account' }).focus()
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { name: 'API tokens' }).waitFor()
      await expectAccessible(page, `account ${colorScheme}`)
      // The activity page: dana's sign-in is on it (newest first).
      await page.getByRole('link', { name: 'Activity' }).focus()
      await page.keyboard.press('Enter')
      await page.getByRole('cell', { name: 'Signed in' }).first().waitFor()
      await expectAccessible(page, `activity ${colorScheme}`)
      // dana is the first user, so an admin: the Admin page lists her.
      await page.getByRole('link', { name: 'Admin', exact: true }).focus()
      await page.keyboard.press('Enter')
      await page.getByRole('cell', { name: /dana/ }).first().waitFor()
      await expectAccessible(page, `admin ${colorScheme}`)
      expect(unexpected(watched)).toEqual([])
      expect(await watched.cspViolations()).toEqual([])
      await page.context().close()
    }
  }, 180_000)

  test('a file deleted after confirming, an upload cancelled, a PDF dropped on the page', async () => {
    const watched = await watchedPage(browser)
    const { page } = watched
    await page.goto(`${server.url}/app`)
    await page.getByLabel('User name').fill('dana')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('tbody tr').first().waitFor()
    const before = (await (await api('/files', apiToken)).json()).data.length

    // Delete one, so the quota leaves room for the upload that is then cancelled.
    await page.getByRole('link', { name: 'second.pdf' }).click()
    await page.getByRole('button', { name: 'Delete this file…' }).click()
    await page.getByRole('button', { name: 'Keep it' }).click()
    expect((await (await api('/files', apiToken)).json()).data.length).toBe(before)
    await page.getByRole('button', { name: 'Delete this file…' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('heading', { name: 'Files' }).waitFor()
    expect((await (await api('/files', apiToken)).json()).data.length).toBe(before - 1)

    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 200_000 })
    await page.getByTestId('upload-input').setInputFiles([pdfs.second])
    const row = page.locator('.upload', { hasText: 'second.pdf' })
    await eventually(async () => expect(Number(await row.locator('progress').getAttribute('value'))).toBeGreaterThan(0))
    await row.getByRole('button', { name: 'Cancel the upload of second.pdf' }).click()
    await eventually(async () => expect(await row.locator('.upload-status').textContent()).toBe('Cancelled'))
    await Bun.sleep(300)
    expect((await (await api('/files', apiToken)).json()).data.length).toBe(before - 1)
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })

    // Dropped on the page, a PDF is uploaded like a picked one.
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer()
      transfer.items.add(new File(['%PDF-1.4\n%%EOF\n'], 'dropped.pdf', { type: 'application/pdf' }))
      return transfer
    })
    await page.dispatchEvent('main', 'dragover', { dataTransfer: dropped })
    expect(await page.locator('main.drop-over').count()).toBe(1)
    await page.dispatchEvent('main', 'drop', { dataTransfer: dropped })
    await eventually(async () =>
      expect(await page.locator('.upload', { hasText: 'dropped.pdf' }).locator('.upload-status').textContent()).toBe('Uploaded'),
    )
    await eventually(async () => expect(await page.getByRole('link', { name: 'dropped.pdf' }).count()).toBe(1))
    expect((await (await api('/files', apiToken)).json()).data.length).toBe(before)
    expect(watched.consoleErrors.filter((line) => !/ERR_|net::/.test(line))).toEqual([])
    await page.context().close()
  }, 180_000)

  test('an upload whose answer is lost on the way back is sent again with its Idempotency-Key, and stored once', async () => {
    const binary = join(dir, 'pdfshare')
    await run(['user', 'add', 'gwen', '--password-stdin'], { cwd: dir, program: [binary], stdin: `${PASSWORD}\n` })
    const gwenToken = (await run(['token', 'issue', 'gwen'], { cwd: dir, program: [binary] })).stdout.trim()
    const watched = await watchedPage(browser)
    const { page } = watched
    const keys: string[] = []
    await page.route('**/api/files/upload', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '')
      if (keys.length > 1) return route.continue()
      await route.fetch() // the server stores the PDF…
      await route.abort('connectionreset') // …and its answer never reaches the page
    })
    await page.goto(`${server.url}/app`)
    await page.getByLabel('User name').fill('gwen')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'No PDFs yet' }).waitFor()
    await page.getByTestId('upload-input').setInputFiles([pdfs.first])
    await eventually(async () =>
      expect(await page.locator('.upload', { hasText: 'first.pdf' }).locator('.upload-status').textContent()).toBe('Uploaded'),
    )
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/)
    expect(keys[1]).toBe(keys[0]!)
    expect((await (await api('/files', gwenToken)).json()).data).toHaveLength(1)
    // The next upload has a key of its own.
    await page.unroute('**/api/files/upload')
    const next = page.waitForRequest('**/api/files/upload')
    await page.getByTestId('upload-input').setInputFiles([pdfs.third])
    expect((await next).headers()['idempotency-key']).not.toBe(keys[0])
    await eventually(async () => expect((await (await api('/files', gwenToken)).json()).data).toHaveLength(2))
    expect(watched.consoleErrors.filter((line) => !/ERR_|net::/.test(line))).toEqual([])
    await page.context().close()
  }, 180_000)

  test('an admin invites someone: the link makes an account and signs it in once; an admin’s request shows on its Account page; disabled, it cannot sign in', async () => {
    const watched = await watchedPage(browser)
    const { page } = watched
    await page.goto(`${server.url}/app`)
    await page.getByLabel('User name').fill('dana')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('tbody tr').first().waitFor()
    await page.getByRole('link', { name: 'Admin', exact: true }).click()
    await page.getByRole('button', { name: 'Create invitation link' }).click()
    const link = await page.getByLabel('The invitation link').inputValue()
    expect(link).toMatch(/\/app#\/join\/[A-Za-z0-9_-]{22}$/)

    const invited = await watchedPage(browser)
    await invited.page.goto(link)
    await invited.page.getByLabel('User name').fill('erin')
    await invited.page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await invited.page.getByLabel('Password again').fill(PASSWORD)
    await invited.page.getByRole('button', { name: 'Make my account' }).click()
    await invited.page.getByRole('heading', { name: 'Files' }).waitFor()
    expect(await invited.page.locator('.who').textContent()).toBe('erin')
    expect(await invited.page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0) // erin is no admin
    // The link worked once.
    await invited.page.context().clearCookies()
    const again = await fetch(`${server.url}/api/auth/accept-invitation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invitation: link.split('/').at(-1), username: 'erin2', password: PASSWORD }),
    })
    expect(again.status).toBe(404)

    // The admin asks that a single sign-on open erin's account: erin sees it, with who asked, and refuses it.
    const erin = (await (await api('/admin/users', apiToken)).json()).data.find((user: { name: string }) => user.name === 'erin')
    const asked = await api(`/admin/users/${erin.id}`, apiToken, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ssoEmail: 'someone@example.com' }),
    })
    expect((await asked.json()).data.ssoEmailAllowedByUser).toBe(false)
    await invited.page.getByRole('link', { name: 'Account' }).click()
    await invited.page.getByRole('heading', { name: 'Changes by an admin' }).waitFor()
    expect(await invited.page.locator('.changes li').first().textContent()).toContain('by dana')
    const request = invited.page.getByRole('region', { name: 'Single sign-on' })
    expect(await request.textContent()).toContain('someone@example.com')
    await expectAccessible(invited.page, 'account page with an admin’s request')
    await request.getByRole('button', { name: 'Refuse' }).click()
    await eventually(async () => expect(await invited.page.getByRole('region', { name: 'Single sign-on' }).count()).toBe(0))

    await page.reload()
    await page.getByRole('button', { name: 'Disable erin' }).click()
    await page.getByRole('button', { name: 'Enable erin' }).waitFor()
    const signIn = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'erin', password: PASSWORD }),
    })
    expect(signIn.status).toBe(403)
    expect((await signIn.json()).code).toBe('account_disabled')
    expect(unexpected(watched)).toEqual([])
    expect(unexpected(invited)).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await invited.page.context().close()
    await page.context().close()
  }, 180_000)

  test('two-factor sign-in: set up from the Account page, recovery codes shown once, then sign-in asks for a code', async () => {
    // A user of their own (through an invitation), so dana's sign-ins in the other tests stay one step.
    const invited = await api('/admin/invitations', apiToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    const secretOfLink = (await invited.json()).data.url.split('/').at(-1)
    const made = await fetch(`${server.url}/api/auth/accept-invitation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invitation: secretOfLink, username: 'gus', password: PASSWORD }),
    })
    expect(made.status).toBe(201)
    const codeOf = (secret: string, steps = 0) =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 })

    const watched = await watchedPage(browser)
    const { page } = watched
    const signIn = async () => {
      await page.getByLabel('User name').fill('gus')
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
    }
    await page.goto(`${server.url}/app`)
    await signIn()
    await page.getByRole('heading', { name: 'Files' }).waitFor()
    await page.getByRole('link', { name: 'Account' }).click()
    // Changing how the account signs in asks for the password again (docs/sign-in.md, Changing how you sign in).
    const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' })
    await twoFactor.getByLabel('Your password').fill(PASSWORD)
    await twoFactor.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor()
    const secret = (await page.locator('code.secret').textContent()) ?? ''
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    await page.getByLabel('Code from the app').fill('000000' === codeOf(secret) ? '111111' : '000000')
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByText('not the one the app shows now').waitFor()
    await page.getByLabel('Code from the app').fill(codeOf(secret))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor()
    const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('code').allTextContents()
    expect(codes).toHaveLength(10)
    await expectAccessible(page, 'two-factor recovery codes')
    await page.getByRole('button', { name: 'I have saved them' }).click()
    await page.getByText('10 of 10 recovery codes left').waitFor()
    await expectAccessible(page, 'two-factor on')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn()
    await page.getByLabel('Code from your authenticator app').fill(codeOf(secret, 1)) // the setup used this step's code
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Account: gus' }).waitFor() // back where the session ended
    expect(await page.locator('.who').textContent()).toBe('gus')
    // The wrong code's 400 and the sign-in that asked for a code (401) are the only failed requests.
    expect(unexpected(watched).filter((line) => !/status of 400/.test(line))).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  }, 180_000)
})
