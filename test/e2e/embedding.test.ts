import { afterAll, describe, expect, test } from 'bun:test'
import type { Frame, Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import type { LinkDto } from '../../src/routes/links/model'
import { uploadPdfTo } from '../support/uploads'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, SCREENSHOTS } from './browser'

// A share link inside another site's page, in Chromium against the compiled binary (docs/share-page.md,
// Embedding). Two sites on one machine: the share pages at http://localhost:<port>, the embedding pages at
// http://127.0.0.1:<another port> — another host, so another site, whose frames of the share page are
// third-party contexts. Chromium's browser contexts (as playwright-core makes them) block third-party cookies
// like an incognito window, so a reader's cookies reach the frame only because they are Partitioned; it counts
// http://localhost as secure, so they may be Secure without https. A third site (another port) is not allowed.
const app = useBinaryApp({ name: 'embedding', user: 'embedder', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })

/** A site whose page at `/?src=URL` shows URL in a frame, and whose page at `/pasted` is what was pasted into it. */
function site() {
  let pasted = ''
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const url = new URL(request.url)
      const body =
        url.pathname === '/pasted'
          ? pasted
          : `<iframe src="${url.searchParams.get('src')}" width="900" height="700" title="Handbook"></iframe>`
      return new Response(`<!doctype html><title>Intranet</title><h1>Our handbook</h1>${body}`, {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      })
    },
  })
  const paste = (html: string) => {
    pasted = html
  }
  return Object.assign(server, { paste })
}
const allowed = site()
const other = site()
afterAll(() => {
  allowed.stop(true)
  other.stop(true)
})
/** Headless Chromium says so in its User-Agent, and is then never counted: the reader says it is plain Chrome. */
const READER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
const originOf = (server: ReturnType<typeof site>) => `http://127.0.0.1:${server.port}`

/** A new link of a new PDF, through the API; its share page on http://localhost:<port>. */
async function newLink(body: Record<string, unknown>): Promise<string> {
  const pdf = makePdf({ pages: 2, text: (p) => `Handbook page ${p}` })
  const file = await uploadPdfTo(app.server.url, app.token, pdf, { title: 'Handbook' })
  const link = await app.json<LinkDto>(`/files/${file.id}/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return onLocalhost(link.url)
}

/** The share page on the address the binary listens on, by the name `localhost` (its public URL says port 0). */
const onLocalhost = (url: string) => `http://localhost:${new URL(app.server.url).port}${new URL(url).pathname}`

/** Opens `path` of `site` in a fresh context (its own cookie jar), and the frame in it once it navigated. */
async function openOn(
  server: ReturnType<typeof site>,
  path: string,
): Promise<{ page: Page; frame: () => Frame; close: () => Promise<void> }> {
  const context = await app.browser.newContext({ viewport: { width: 1000, height: 820 }, userAgent: READER })
  const page = await context.newPage()
  await page.goto(`${originOf(server)}${path}`)
  await page.waitForLoadState('load')
  const frame = () => page.frames().find((each) => each !== page.mainFrame())!
  return { page, frame, close: () => context.close() }
}
const framedOn = (server: ReturnType<typeof site>, url: string) => openOn(server, `/?src=${encodeURIComponent(url)}`)

/** Waits until the framed viewer has drawn page 1 and hidden its status. */
async function documentShownIn(frame: Frame): Promise<void> {
  await frame.waitForSelector('.page[data-page-number="1"] canvas')
  await frame.waitForFunction(() => document.querySelector('#status')?.hasAttribute('hidden'))
}

describe('a share page in a frame of another site', () => {
  test('the owner names a site and copies the embed code in the dashboard; there the reader types the password inside the frame and reads the PDF', async () => {
    const pdf = makePdf({ pages: 2, text: (p) => `Handbook page ${p}` })
    const file = await uploadPdfTo(app.server.url, app.token, pdf, { title: 'Handbook' })
    const owner = await app.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const dashboard = await owner.newPage()
    let url: string
    try {
      await app.signIn(dashboard)
      await dashboard.locator('tbody tr').first().waitFor()
      await dashboard.goto(`${app.server.url}/app#/files/${file.id}`)
      await dashboard.getByRole('button', { name: 'New link…' }).click()
      const form = dashboard.locator('.new-link form')
      await form.getByLabel(/^Label/).fill('Intranet')
      await form.getByLabel('Password').fill('staff only')
      await form.getByLabel('Sites that may show it in a frame').fill(`${originOf(allowed)}/`)
      await form.getByRole('button', { name: 'Create the link' }).click()
      const item = dashboard.locator('.link-item', { has: dashboard.getByRole('heading', { name: 'Intranet', exact: true }) })
      await item.getByRole('button', { name: 'Embed Intranet' }).click()
      await item.getByText(`Shown in frames on ${originOf(allowed)} only.`).waitFor()
      await expectAccessible(dashboard, 'the embed code')
      const snippet = await item.getByLabel('Embed code').inputValue()
      expect(snippet).toStartWith('<iframe src="http://localhost:')
      expect(snippet).toContain('referrerpolicy="origin"')
      url = onLocalhost(/src="([^"]+)"/.exec(snippet)![1]!)
      allowed.paste(snippet.replace(/src="[^"]+"/, `src="${url}"`))
    } finally {
      await owner.close()
    }

    const { page, frame, close } = await openOn(allowed, '/pasted')
    try {
      await frame().getByLabel('Password').fill('staff only')
      await frame().getByRole('button', { name: 'Open' }).click()
      await documentShownIn(frame())
      expect(await frame().locator('.doc-title').textContent()).toBe('Handbook')
      expect(frame().url()).toBe(url)
      await page.screenshot({ path: `${SCREENSHOTS}/embedded-password-link.png` })
      // The unlock cookie works in the frame: Secure (http://localhost counts as secure) and SameSite=None.
      const cookies = await page.context().cookies(url)
      expect(cookies.find((cookie) => cookie.name === 'pdfshare_unlock')).toMatchObject({ sameSite: 'None', secure: true })
      // The frame was a reader's visit, counted like the page opened on its own.
      const [, link] = await app.json<LinkDto[]>(`/files/${file.id}/links`)
      expect(link!.views).toBe(1)
    } finally {
      await close()
    }
  })

  test('the same link in a frame of any other site is refused: the frame shows nothing of the page', async () => {
    const url = await newLink({ password: 'staff only', embedOrigins: [originOf(allowed)] })
    const { frame, close } = await framedOn(other, url)
    try {
      await eventually(() => expect(frame().url()).toBe('chrome-error://chromewebdata/'))
      expect(await frame().locator('#link-password').count()).toBe(0)
    } finally {
      await close()
    }
  })

  test('a link that names no site is refused in every frame, also on the site another link allows', async () => {
    const url = await newLink({})
    const { frame, close } = await framedOn(allowed, url)
    try {
      await eventually(() => expect(frame().url()).toBe('chrome-error://chromewebdata/'))
    } finally {
      await close()
    }
  })
})
