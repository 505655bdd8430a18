import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import type { Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import { startSmtpServer } from '../support/smtp'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, firstPageInk, SCREENSHOTS, watchedPage, type Watched } from './browser'

// Readers an owner chooses, in Chromium against the compiled binary, which mails through a real SMTP server on
// loopback: a link set up in the dashboard that asks for a verified address at one domain and an agreement; a
// reader through every gate with the code from the mail; the owner told by mail and on ntfy (a stand-in on
// loopback), set up on the Notifications page; the owner's Readers table and erasure; a forgotten password reset
// by mail.
// The mail server speaks STARTTLS and wants AUTH, as a real one does: the binary trusts its test certificate.
const cert = join(import.meta.dir, '..', 'fixtures', 'smtp-tls', 'cert.pem')
const smtp = await startSmtpServer({ tls: { key: join(import.meta.dir, '..', 'fixtures', 'smtp-tls', 'key.pem'), cert } })
afterAll(() => smtp.stop())
/** An ntfy server's stand-in on loopback: what it was sent. */
const ntfy: { path: string; body: Record<string, unknown> }[] = []
const ntfyServer = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: async (request) => {
    ntfy.push({ path: new URL(request.url).pathname, body: await request.json() })
    return Response.json({ id: 'x' })
  },
})
afterAll(() => ntfyServer.stop(true))
const app = useBinaryApp({
  name: 'readers',
  user: 'olive',
  env: {
    PDFSHARE_RATE_LIMIT_SHARE: '0',
    PDFSHARE_SMTP_URL: `smtp://mailer:mail%20password@localhost:${smtp.port}`,
    NODE_EXTRA_CA_CERTS: cert,
    PDFSHARE_MAIL_FROM: 'Docs <docs@example.test>',
    PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1',
  },
})
const TITLE = 'Term sheet'
/** Headless Chromium says so in its User-Agent, and is then never counted: readers here say they are plain Chrome. */
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
type Link = { id: string; url: string; access: string; allow: string[]; deny: string[]; agreement: string | null }

/** The link as the binary serves it here (its public URL is localhost, maybe another port). */
const served = (url: string) => `${app.server.url}${new URL(url).pathname}`
/** Wrong codes and refused addresses, provoked on purpose, are the only console lines allowed. */
const EXPECTED = [/status of 401/, /status of 403/]
const unexpected = (watched: Watched) => watched.consoleErrors.filter((line) => !EXPECTED.some((pattern) => pattern.test(line)))

/** The text of the newest mail to `to` after `seen` of them; every mail came over STARTTLS, signed in. */
async function mailTo(to: string, seen = 0): Promise<string> {
  let text = ''
  await eventually(async () => {
    const mails = smtp.received.filter((mail) => mail.to.includes(to))
    expect(mails.length).toBeGreaterThan(seen)
    expect(mails.every((mail) => mail.secure)).toBe(true)
    text = mails.at(-1)!.data.replace(/=\r?\n/g, '')
  }, 10_000)
  return text
}
/** The code of a mail: in its body only (the subject is neutral: admins see subjects in the outbox). */
const codeIn = (mail: string) => {
  expect(mail).toMatch(/^Subject: Your code to open a shared document$/m)
  return /Your code is (\d{6})\./.exec(mail)![1]!
}

async function submitAddress(page: Page, address: string) {
  await page.getByLabel('Email address').fill(address)
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: /^(Send code|Continue)$/ }).click()])
}

describe('readers you choose, in Chromium', () => {
  let fileId = ''
  let link: Link

  test('the owner sets up a link in the dashboard: verified addresses at one domain, one kept out, an agreement', async () => {
    const form = new FormData()
    form.append('file', new Blob([makePdf({ pages: 2, text: (p) => `Term sheet, page ${p}` })], { type: 'application/pdf' }), 'terms.pdf')
    form.append('title', TITLE)
    fileId = (await app.json<{ id: string }>('/files/upload', { method: 'POST', body: form })).id
    const watched = await watchedPage(app.browser)
    const { page } = watched
    await app.signIn(page)
    await page.locator('tbody tr').first().waitFor()
    await page.goto(`${app.server.url}/app#/files/${fileId}`)
    await page.getByRole('button', { name: 'New link…' }).click()
    const editor = page.locator('.new-link form')
    await editor.getByLabel(/^Label/).fill('Investors')
    await editor.getByLabel('Readers', { exact: true }).selectOption('verified-email')
    await editor.getByLabel('Only these addresses and @domains').fill('@fund.test\n')
    await editor.getByLabel('Never these').fill('eve@fund.test')
    await editor.getByLabel(/^Agreement readers accept first/).fill('I will not forward this term sheet.\nIt is confidential.')
    await expectAccessible(page, 'link form with readers')
    await editor.getByRole('button', { name: 'Create the link' }).click()
    const item = page.locator('.link-item', { has: page.getByRole('heading', { name: 'Investors', exact: true }) })
    await item.waitFor()
    expect(await item.locator('.sub').textContent()).toContain('readers confirm their email by code (only @fund.test; never eve@fund.test)')
    expect(await item.locator('.sub').textContent()).toContain('agreement first')
    const links = await app.json<Link[]>(`/files/${fileId}/links`)
    link = links.find((one) => one.access === 'verified-email')!
    expect(link).toMatchObject({
      allow: ['@fund.test'],
      deny: ['eve@fund.test'],
      agreement: 'I will not forward this term sheet.\nIt is confidential.',
    })
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-link-readers.png'), fullPage: true })
    expect(unexpected(watched)).toEqual([])
  })

  test('the owner adds a mail and an ntfy channel on the Notifications page; a test message arrives', async () => {
    const watched = await watchedPage(app.browser)
    const { page } = watched
    await app.signIn(page)
    await page.locator('tbody tr').first().waitFor()
    await page.getByRole('link', { name: 'Notifications' }).click()
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor()
    await page.getByLabel('Email address').fill('olive@example.test')
    await page.getByRole('button', { name: 'Add the channel' }).click()
    await page.getByRole('heading', { name: 'Email: olive@example.test' }).waitFor()
    await page.getByLabel('Where').selectOption('ntfy')
    await page.getByLabel('Topic URL').fill(`http://127.0.0.1:${ntfyServer.port}/term-sheets`)
    await page.getByRole('button', { name: 'Add the channel' }).click()
    const channel = page.locator('.channel-list li', { hasText: 'ntfy' })
    await channel.waitFor()
    await channel.getByRole('button', { name: /^Send a test message/ }).click()
    await eventually(() => expect(ntfy.map((one) => one.body.title)).toEqual(['pdfshare test notification']))
    expect(ntfy[0]).toMatchObject({ path: '/', body: { topic: 'term-sheets' } })
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      expect(await page.locator('.deliveries-table tbody tr').first().textContent()).toContain('Delivered')
    })
    await expectAccessible(page, 'notifications page')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-notifications.png'), fullPage: true })
    expect(unexpected(watched)).toEqual([])
  })

  test('a reader: kept-out addresses, a code by mail, a wrong code, the agreement, then the document', async () => {
    const watched = await watchedPage(app.browser, { userAgent: CHROME })
    const { page } = watched
    const url = served(link.url)
    await page.goto(url)
    expect(await page.title()).toBe('Your email address')
    expect(await page.content()).not.toContain(TITLE)
    await expectAccessible(page, 'address page')
    await page.screenshot({ path: join(SCREENSHOTS, 'gate-address.png') })

    // A verified link answers a kept-out address like any other (its lists answer nobody who is on them), and
    // mails it nothing.
    for (const kept of ['eve@fund.test', 'sam@elsewhere.test']) {
      await submitAddress(page, kept)
      await page.getByText(`We sent a 6-digit code to ${kept}`).waitFor()
      await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Use another address' }).click()])
    }
    await submitAddress(page, 'Ada@Fund.test')
    expect(await page.title()).toBe('Check your email')
    await page.getByText('We sent a 6-digit code to ada@fund.test').waitFor()
    await expectAccessible(page, 'code page')
    const mail = await mailTo('ada@fund.test')
    expect(smtp.received.filter((one) => one.to.includes('eve@fund.test') || one.to.includes('sam@elsewhere.test'))).toEqual([])
    expect(mail).toMatch(/^From: Docs <docs@example\.test>/m)
    expect(mail).not.toContain(TITLE)
    const code = codeIn(mail)

    await page.getByLabel('Code').fill(code === '999999' ? '999998' : '999999')
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Open' }).click()])
    await page.getByText('Wrong code. 4 tries left.').waitFor()
    await page.getByLabel('Code').fill(code)
    await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Open' }).click()])

    expect(await page.title()).toBe('Accept to continue')
    expect(await page.getByRole('document', { name: 'Agreement' }).textContent()).toBe(
      'I will not forward this term sheet.\nIt is confidential.',
    )
    await expectAccessible(page, 'agreement page')
    await page.screenshot({ path: join(SCREENSHOTS, 'gate-agreement.png') })
    await page.getByLabel('I have read and accept these terms').check()
    await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Accept and open' }).click()])
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    expect(await page.title()).toBe(TITLE)
    expect(unexpected(watched)).toEqual([])

    const acceptances = await app.json<{ acceptances: { reader: string; version: number }[] }>(`/links/${link.id}/acceptances`)
    expect(acceptances.acceptances).toEqual([expect.objectContaining({ reader: 'ada@fund.test', version: 1 })])

    // The owner is told, by mail and on ntfy: the agreement accepted, then the new reader.
    await eventually(() =>
      expect(ntfy.map((one) => one.body.title).sort()).toEqual([
        `Agreement accepted: ${TITLE}`,
        `New reader: ${TITLE}`,
        'pdfshare test notification',
      ]),
    )
    expect(ntfy.find((one) => one.body.title === `New reader: ${TITLE}`)!.body.message).toStartWith(
      'ada@fund.test opened it through the link "Investors"',
    )
    const told = await mailTo('olive@example.test')
    expect(told).toMatch(new RegExp(`^Subject: (New reader|Agreement accepted): ${TITLE}$`, 'm'))
  })

  test('a link that only asks for an address opens after it; a link preview gets the form, not the document', async () => {
    const open = await app.json<Link>(`/files/${fileId}/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Guests', access: 'email' }),
    })
    const watched = await watchedPage(app.browser, { userAgent: CHROME })
    const { page } = watched
    await page.goto(served(open.url))
    expect(await page.getByText('Enter your email address to open this document.').count()).toBe(1)
    await submitAddress(page, 'guest@example.test')
    expect(await firstPageInk(page)).toBeGreaterThan(200)
    const unfurled = await fetch(served(open.url), {
      headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
    })
    const html = await unfurled.text()
    expect(html).not.toContain(TITLE)
    expect(html).not.toContain('og:image')
    expect(unexpected(watched)).toEqual([])
  })

  test("the owner sees who read what, and erases one reader's address", async () => {
    const watched = await watchedPage(app.browser)
    const { page } = watched
    await app.signIn(page)
    await page.locator('tbody tr').first().waitFor()
    await page.goto(`${app.server.url}/app#/files/${fileId}`)
    const readers = page.locator('.readers-table')
    await readers.waitFor()
    await eventually(async () =>
      expect(await readers.locator('tbody th').allTextContents()).toEqual(['guest@example.test', 'ada@fund.test']),
    )
    await expectAccessible(page, 'readers table')
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-readers.png'), fullPage: true })
    await readers.getByRole('button', { name: 'Erase ada@fund.test' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Erase the address' }).click()
    await eventually(async () => expect(await readers.locator('tbody th').allTextContents()).toEqual(['guest@example.test']))
    const acceptances = await app.json<{ acceptances: { reader: string | null }[] }>(`/links/${link.id}/acceptances`)
    expect(acceptances.acceptances.map((one) => one.reader)).toEqual([null])
    expect(unexpected(watched)).toEqual([])
  })

  test('a forgotten password: the sign-in page mails a link, the reset page sets a new password and signs in', async () => {
    await app.cli(['user', 'passwd', 'olive', '--password-stdin'], { stdin: 'the first password\n' })
    // The reset email is set from a session, with the password (an API token may not: docs/sign-in.md).
    const post = (path: string, body: unknown, init: RequestInit = {}) =>
      fetch(`${app.server.url}/api${path}`, {
        method: 'POST',
        ...init,
        headers: { 'content-type': 'application/json', ...init.headers },
        body: JSON.stringify(body),
      })
    const signedIn = await post('/auth/login', { username: 'olive', password: 'the first password' })
    const session = ((await signedIn.json()) as { data: { token: string } }).data.token
    const email = await post(
      '/me/email',
      { email: 'olive@example.test', password: 'the first password' },
      { method: 'PUT', headers: { authorization: `Bearer ${session}` } },
    )
    expect(email.status).toBe(202) // it counts once the link mailed to it is opened
    const watched = await watchedPage(app.browser)
    const { page } = watched
    let confirmUrl = ''
    await eventually(() => {
      const mails = smtp.received.filter((one) => one.to.includes('olive@example.test')).map((one) => one.data.replace(/=\r?\n/g, ''))
      confirmUrl = mails.map((text) => /(https?:\/\/\S+#\/email\/[A-Za-z0-9_-]+)/.exec(text)?.[1]).find(Boolean) ?? ''
      expect(confirmUrl).not.toBe('')
    })
    await page.goto(`${app.server.url}${new URL(confirmUrl).pathname}${new URL(confirmUrl).hash}`)
    await page.getByRole('button', { name: 'Confirm my email' }).click()
    await page.getByRole('heading', { name: 'Email confirmed' }).waitFor()
    await expectAccessible(page, 'email confirmation page')
    await page.goto(`${app.server.url}/app`)
    await page.getByRole('button', { name: 'Forgot your password?' }).click()
    await page.getByLabel('Your email').fill('olive@example.test')
    await page.getByRole('button', { name: 'Mail me a link' }).click()
    await page.getByRole('status').filter({ hasText: 'a link to choose a new one is on its way' }).waitFor()
    // Her inbox also holds the notifications of her readers: the reset is the mail with the link.
    let resetUrl = ''
    await eventually(() => {
      const mails = smtp.received.filter((one) => one.to.includes('olive@example.test')).map((one) => one.data.replace(/=\r?\n/g, ''))
      resetUrl = mails.map((text) => /(https?:\/\/\S+#\/reset\/[A-Za-z0-9_-]+)/.exec(text)?.[1]).find(Boolean) ?? ''
      expect(resetUrl).not.toBe('')
    })
    await page.goto(`${app.server.url}${new URL(resetUrl).pathname}${new URL(resetUrl).hash}`)
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
    await expectAccessible(page, 'reset page')
    await page.getByLabel('New password', { exact: true }).fill('the second password')
    await page.getByLabel(/again/i).fill('the second password')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    await page.locator('tbody tr').first().waitFor()
    // The new password signs in; the old one does not.
    const signIn = (password: string) =>
      fetch(`${app.server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'olive', password }),
      })
    expect((await signIn('the second password')).status).toBe(200)
    expect((await signIn('the first password')).status).toBe(401)

    // With two-factor sign-in on, a reset only sets the password: the page sends her to sign in with a code.
    const second = ((await (await signIn('the second password')).json()) as { data: { token: string } }).data.token
    const asOlive = { headers: { authorization: `Bearer ${second}` } }
    const setup = await post('/me/two-factor', { password: 'the second password' }, asOlive)
    const { secret } = ((await setup.json()) as { data: { secret: string } }).data
    const codeOf = (steps: number) =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 })
    expect((await post('/me/two-factor/confirm', { code: codeOf(0), password: 'the second password' }, asOlive)).status).toBe(200)
    const seen = smtp.received.filter((mail) => mail.to.includes('olive@example.test')).length
    expect((await post('/auth/password-reset', { email: 'olive@example.test' })).status).toBe(202)
    resetUrl = /(https?:\/\/\S+#\/reset\/[A-Za-z0-9_-]+)/.exec(await mailTo('olive@example.test', seen))![1]!
    await page.goto(`${app.server.url}${new URL(resetUrl).pathname}${new URL(resetUrl).hash}`)
    await page.getByLabel('New password', { exact: true }).fill('the third password')
    await page.getByLabel(/again/i).fill('the third password')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    await page.getByRole('heading', { name: 'Your new password is set' }).waitFor()
    expect(new URL(page.url()).hash).toBe('#/') // the used link left the address bar
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByLabel('User name').fill('olive')
    await page.getByLabel('Password').fill('the third password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByLabel('Code from your authenticator app').fill(codeOf(1)) // the setup used this step's code
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('tbody tr').first().waitFor()
    // Codes, notifications and the reset alike went over STARTTLS, signed in.
    expect(smtp.received.length).toBeGreaterThan(3)
    expect(smtp.received.filter((mail) => !mail.secure)).toEqual([])
    expect(unexpected(watched)).toEqual([])
  })
})
