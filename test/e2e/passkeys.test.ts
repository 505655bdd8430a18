import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { bearer } from '../support/bearer'
import { ROOT, run, startServer, type RunningServer } from '../../scripts/support/process'
import { expectAccessible } from './accessibility'
import { launchChromium, watchedPage } from './browser'

// Passkeys in Chromium with its virtual authenticator (WebAuthn over the DevTools protocol), served by the
// compiled binary at its default public URL, http://localhost:<port> (browsers allow passkeys on localhost).

const binarySource = join(ROOT, 'dist', 'pdfshare')
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-e2e-passkeys-'))
const PASSWORD = 'a long enough password'
let server: RunningServer
let browser: Browser
let token: string
let base: string

beforeAll(async () => {
  if (!existsSync(binarySource)) throw new Error('dist/pdfshare is missing: run `bun run build` (bun run test does)')
  const binary = join(dir, 'pdfshare')
  copyFileSync(binarySource, binary)
  await run(['user', 'add', 'pat', '--password-stdin'], { cwd: dir, program: [binary], stdin: `${PASSWORD}\n` })
  token = (await run(['token', 'issue', 'pat'], { cwd: dir, program: [binary] })).stdout.trim()
  server = await startServer([], { cwd: dir, program: [binary] })
  base = `http://localhost:${new URL(server.url).port}`
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('passkeys in Chromium', () => {
  test('add one on the Account page, sign in with it alone, remove it, and then it signs in no more', async () => {
    const watched = await watchedPage(browser)
    const { page } = watched
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })
    await page.goto(`${base}/app`)
    await page.getByLabel('User name').fill('pat')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('link', { name: 'Account' }).click()
    // Adding or removing a passkey asks for the password again (docs/sign-in.md, Changing how you sign in).
    const passkeys = page.getByRole('region', { name: 'Passkeys' })
    await passkeys.getByLabel('Your password').fill(PASSWORD)
    await page.getByLabel('Name', { exact: true }).fill('Laptop')
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByRole('button', { name: 'Remove passkey Laptop' }).waitFor()
    await expectAccessible(page, 'passkeys')
    const listed = (await (await fetch(`${server.url}/api/me/passkeys`, { headers: bearer(token) })).json()).data
    expect(listed.map((one: { name: string }) => one.name)).toEqual(['Laptop'])

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Use a passkey', exact: true }).click()
    await page.getByRole('heading', { name: 'Account: pat' }).waitFor()
    expect(await page.locator('.who').textContent()).toBe('pat')
    const audit = (await (await fetch(`${server.url}/api/audit?action=sign_in.succeeded`, { headers: bearer(token) })).json()).data
    expect(audit[0].detail.method).toBe('passkey')

    await passkeys.getByLabel('Your password').fill(PASSWORD)
    page.once('dialog', (dialog) => dialog.accept())
    await page.getByRole('button', { name: 'Remove passkey Laptop' }).click()
    await page.getByRole('button', { name: 'Add a passkey' }).waitFor()
    await page.waitForFunction(() => !document.querySelector('.passkeys'))
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Use a passkey', exact: true }).click()
    await page.getByText('this passkey is not registered here').waitFor()
    expect(await page.getByRole('heading', { name: 'Sign in' }).count()).toBe(1)
    expect(watched.consoleErrors.filter((line) => !/status of 401/.test(line))).toEqual([])
    expect(await watched.cspViolations()).toEqual([])
    await page.context().close()
  }, 180_000)
})
