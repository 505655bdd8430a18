import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { bearer } from '../support/bearer'
import { ROOT, run, startServer, type RunningServer } from '../../scripts/support/process'
import { expectAccessible } from './accessibility'
import { launchChromium, watchedPage } from './browser'

// Single sign-on through a real OpenID Connect provider (oidc-provider, its own Node process on loopback) and
// Chromium going through every redirect, served by the compiled binary.

const binarySource = join(ROOT, 'dist', 'pdfshare')
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-e2e-sso-'))
let server: RunningServer
let provider: ReturnType<typeof Bun.spawn>
let browser: Browser
let adminToken: string
let base: string // PDFSHARE_PUBLIC_URL: the address the provider sends the browser back to
let issuer: string

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api${path}`, { ...init, headers: { ...bearer(adminToken), ...init.headers } })
const users = async (): Promise<{ id: string; name: string; admin: boolean; ssoEmail: string | null }[]> =>
  (await (await api('/admin/users')).json()).data

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

beforeAll(async () => {
  if (!existsSync(binarySource)) throw new Error('dist/pdfshare is missing: run `bun run build` (bun run test does)')
  const binary = join(dir, 'pdfshare')
  copyFileSync(binarySource, binary)
  await run(['user', 'add', 'root'], { cwd: dir, program: [binary] })
  await run(['user', 'add', 'bob'], { cwd: dir, program: [binary] })
  adminToken = (await run(['token', 'issue', 'root'], { cwd: dir, program: [binary] })).stdout.trim()
  const providerPort = freePort()
  issuer = `http://127.0.0.1:${providerPort}`
  server = await startServer([], {
    cwd: dir,
    program: [binary],
    env: {
      PDFSHARE_OIDC_ISSUER: issuer,
      PDFSHARE_OIDC_CLIENT_ID: 'pdfshare',
      PDFSHARE_OIDC_CLIENT_SECRET: 'a client secret long enough',
      PDFSHARE_OIDC_NAME: 'Test ID',
      PDFSHARE_OIDC_ALLOWED_DOMAINS: 'example.com',
      PDFSHARE_OIDC_ADMIN_GROUP: 'pdfshare-admins',
    },
  })
  base = `http://localhost:${new URL(server.url).port}` // the default public URL
  provider = Bun.spawn(
    ['node', join(import.meta.dir, '..', 'support', 'oidc-provider.mjs'), String(providerPort), `${base}/auth/oidc/callback`],
    {
      stdout: 'pipe',
      stderr: 'ignore',
    },
  )
  const reader = (provider.stdout as ReadableStream<Uint8Array>).getReader()
  const { value } = await reader.read()
  expect(new TextDecoder().decode(value)).toContain('ready')
  reader.releaseLock()
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  provider?.kill()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const setMode = (mode: 'normal' | 'wrong-audience' | 'expired') => fetch(`${issuer}/test-mode`, { method: 'POST', body: mode })

/** From the sign-in page to the provider's login and consent forms and back; the page is wherever pdfshare then sends it. */
async function signInAt(page: Page, login: string) {
  await page.goto(`${base}/app`)
  await page.getByRole('link', { name: 'Sign in with Test ID' }).click()
  await page.locator('input[name=login]').fill(login)
  await page.locator('input[name=password]').fill('any password')
  await page.locator('button[type=submit]').click()
  // The consent page's button, once the login page has gone: asked at once, the locator could still find the login
  // page's button on a busy machine, click it again, and leave the consent page unanswered.
  await page.locator('input[name=login]').waitFor({ state: 'detached' })
  await page.locator('button[type=submit]').click() // consent
}

describe('single sign-on in Chromium', () => {
  test('a first sign-in with a verified email of an allowed domain creates the user and signs in; the next one finds it', async () => {
    const first = await watchedPage(browser)
    await first.page.goto(`${base}/app`)
    await expectAccessible(first.page, 'sign-in with single sign-on')
    await signInAt(first.page, 'alice@example.com')
    await first.page.getByRole('heading', { name: 'Files' }).waitFor()
    expect(await first.page.locator('.who').textContent()).toBe('alice')
    expect(first.page.url()).toBe(`${base}/app#/files`) // the one-time code left the address
    expect(await first.page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0)
    await first.page.context().close()

    const second = await watchedPage(browser)
    await signInAt(second.page, 'alice@example.com')
    await second.page.getByRole('heading', { name: 'Files' }).waitFor()
    expect(await second.page.locator('.who').textContent()).toBe('alice')
    await second.page.context().close()
    expect((await users()).filter((user) => user.name.startsWith('alice')).map((user) => user.name)).toEqual(['alice'])
    const audit = (await (await api('/admin/audit?action=sign_in.succeeded&user=alice')).json()).data
    expect(audit.map((entry: { detail: { method: string } }) => entry.detail.method)).toEqual(['sso', 'sso'])
  }, 180_000)

  test('login CSRF: the one-time code of an attacker’s sign-in, opened in another browser, signs nobody in there', async () => {
    // The attacker signs in with their own account and stops at the handoff: their dashboard never redeems it.
    const attacker = await watchedPage(browser)
    await attacker.page.route('**/api/auth/sso', (route) => route.abort())
    const callback = attacker.page.waitForResponse((response) => response.url().startsWith(`${base}/auth/oidc/callback`))
    await signInAt(attacker.page, 'mallory.attacker@example.com')
    const handoff = (await callback).headers().location ?? ''
    expect(handoff).toMatch(/^\/app#\/sso\/[A-Za-z0-9_-]+$/)

    // The victim opens the link the attacker sent: refused, and not signed in as anyone.
    const victim = await watchedPage(browser)
    const redeemed = victim.page.waitForResponse((response) => response.url() === `${base}/api/auth/sso`)
    await victim.page.goto(`${base}${handoff}`)
    expect((await redeemed).status()).toBe(401)
    expect(await victim.page.getByRole('alert').textContent()).toContain('finished in another browser')
    expect(await victim.page.locator('.who').count()).toBe(0)
    await victim.page.context().close()

    // In the browser that finished the sign-in (a new tab of it holds the handoff's cookie too), the same code still works.
    const again = await attacker.page.context().newPage()
    await again.goto(`${base}${handoff}`)
    await again.getByRole('heading', { name: 'Files' }).waitFor()
    expect(await again.locator('.who').textContent()).toBe('mallory.attacker')
    await attacker.page.context().close()
  }, 180_000)

  const refusals = [
    { what: 'a domain not allowed', login: 'mallory@other.org', says: 'mallory@other.org may not sign in to this server', name: 'mallory' },
    // Its last domain is allowed; which part is "the domain" depends on who reads it.
    { what: 'an email with two @', login: 'eve@evil.example.org@example.com', says: 'is not a single email address', name: 'eve' },
  ]
  for (const { what, login, says, name } of refusals) {
    test(`${what} gets a page that says so, no session and no account`, async () => {
      const { page } = await watchedPage(browser)
      const answer = page.waitForResponse((response) => response.url().startsWith(`${base}/auth/oidc/callback`))
      await signInAt(page, login)
      expect((await answer).status()).toBe(403)
      await page.getByRole('heading', { name: 'Not allowed' }).waitFor()
      expect(await page.textContent('main')).toContain(says)
      expect((await users()).map((user) => user.name)).not.toContain(name)
      await page.context().close()
    }, 180_000)
  }

  test('an admin lets bob link his provider account: an unverified email is refused, the verified one links to bob', async () => {
    const bob = (await users()).find((user) => user.name === 'bob')!
    const allowed = await api(`/admin/users/${bob.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ssoEmail: 'Bob@Example.com' }),
    })
    expect((await allowed.json()).data.ssoEmail).toBe('bob@example.com')

    const unverified = await watchedPage(browser)
    await signInAt(unverified.page, 'bob@example.com+unverified')
    await unverified.page.getByRole('heading', { name: 'Not allowed' }).waitFor()
    expect(await unverified.page.textContent('main')).toContain('did not confirm your email address')
    await unverified.page.context().close()
    expect((await users()).find((user) => user.name === 'bob')!.ssoEmail).toBe('bob@example.com') // still waiting

    const verified = await watchedPage(browser)
    await signInAt(verified.page, 'bob@example.com')
    await verified.page.getByRole('heading', { name: 'Files' }).waitFor()
    expect(await verified.page.locator('.who').textContent()).toBe('bob')
    await verified.page.context().close()
    const after = await users()
    expect(after.find((user) => user.name === 'bob')!.ssoEmail).toBeNull()
    expect(after.map((user) => user.name)).not.toContain('bob-2')
  }, 180_000)

  test('members of PDFSHARE_OIDC_ADMIN_GROUP are admins', async () => {
    const { page } = await watchedPage(browser)
    await signInAt(page, 'carol.admin@example.com')
    await page.getByRole('link', { name: 'Admin', exact: true }).waitFor()
    expect((await users()).find((user) => user.name === 'carol.admin')!.admin).toBe(true)
    await page.context().close()
  }, 180_000)

  test('a forged state and a replayed code are refused with a page and no session', async () => {
    const { page } = await watchedPage(browser)
    const callback = page.waitForRequest((request) => request.url().startsWith(`${base}/auth/oidc/callback`))
    let pending = ''
    page.on('request', async (request) => {
      if (request.url().startsWith(`${issuer}/auth`) && !pending) {
        pending =
          (await page.context().cookies(`${base}/auth/oidc/callback`)).find((cookie) => cookie.name === 'pdfshare_oidc')?.value ?? ''
      }
    })
    await signInAt(page, 'alice@example.com')
    await page.getByRole('heading', { name: 'Files' }).waitFor()
    const used = new URL((await callback).url())
    expect(pending).not.toBe('')
    await page.context().close()

    const replayed = await fetch(used, { headers: { cookie: `pdfshare_oidc=${pending}` }, redirect: 'manual' })
    expect(replayed.status).toBe(400)
    expect(replayed.headers.get('location')).toBeNull()
    expect(await replayed.text()).toContain('could not be verified')
    const forged = new URL(used)
    forged.searchParams.set('state', 'forged-state-value')
    const refused = await fetch(forged, { headers: { cookie: `pdfshare_oidc=${pending}` }, redirect: 'manual' })
    expect(refused.status).toBe(400)
    expect(refused.headers.get('location')).toBeNull()
    const withoutCookie = await fetch(used, { redirect: 'manual' })
    expect(withoutCookie.status).toBe(400)
    expect(await withoutCookie.text()).toContain('not started in this browser')
  }, 180_000)

  for (const mode of ['wrong-audience', 'expired'] as const) {
    test(`an ID token with ${mode === 'expired' ? 'an expiry in the past' : 'another audience'} is refused, with no session`, async () => {
      await setMode(mode)
      try {
        const { page } = await watchedPage(browser)
        const answer = page.waitForResponse((response) => response.url().startsWith(`${base}/auth/oidc/callback`))
        await signInAt(page, 'alice@example.com')
        expect((await answer).status()).toBe(400)
        await page.getByRole('heading', { name: 'Sign-in failed' }).waitFor()
        expect(await page.textContent('main')).toContain(mode === 'expired' ? 'its "exp" claim' : 'its "aud" claim')
        await page.context().close()
      } finally {
        await setMode('normal')
      }
    }, 180_000)
  }
})
