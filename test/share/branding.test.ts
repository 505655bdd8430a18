import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { makePdf } from '../../scripts/support/pdf'
import { eventually } from '../support/eventually'
import { startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// The instance's branding on the pages readers get (docs/share-page.md, Branding): the logo and name in the
// viewer's toolbar and atop every page that stands in for a document, the accent as a stylesheet of our origin
// (the CSP stays as strict), the name in link previews, and no word of pdfshare when it is hidden.
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-branded-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const logoFile = join(dir, 'logo.png')
writeFileSync(
  logoFile,
  await sharp({ create: { width: 400, height: 100, channels: 4, background: '#0b6e4f' } })
    .png()
    .toBuffer(),
)

const branded = await startTestApp({
  PDFSHARE_RATE_LIMIT_SHARE: '0',
  PDFSHARE_BRAND_NAME: 'Acme <Legal> & Co',
  PDFSHARE_BRAND_ACCENT: '#0b6e4f',
  PDFSHARE_BRAND_LOGO: logoFile,
})
const plain = await startTestApp({ PDFSHARE_RATE_LIMIT_SHARE: '0' })

const get = (server: typeof branded, path: string) => server.call('GET', path, { headers: { 'user-agent': FIREFOX } })
const pageOf = async (server: typeof branded, path: string) => {
  const response = await get(server, path)
  return { response, text: await response.text() }
}
const brandingOf = async (server: typeof branded, token: string) =>
  (await (await server.call('GET', '/api/admin/branding', { token })).json()).data

describe('a branded install', async () => {
  const admin = await branded.user('branded-admin')
  const file = await uploadPdf(branded, admin, { bytes: makePdf(), name: 'terms.pdf' })
  const { logo, stylesheet } = await brandingOf(branded, admin.token)

  test('the viewer: logo and name before the title, the accent stylesheet after the page’s own, the name in link previews', async () => {
    const { response, text } = await pageOf(branded, sharePathOf(file))
    expect(response.status).toBe(200)
    expect(text).toContain(
      `<header class="toolbar">\n  <span class="brand-mark"><img class="brand-logo" src="${logo.url}" width="400" height="100" alt=""><span class="brand-name">Acme &lt;Legal&gt; &amp; Co</span></span><h1 class="doc-title"`,
    )
    expect(text).toMatch(
      new RegExp(
        `<link rel="stylesheet" href="/base/assets/page-[^"]+\\.css">\\n<link rel="stylesheet" href="${stylesheet.replace(/[?.]/g, '\\$&')}">`,
      ),
    )
    expect(text).toContain('<meta property="og:site_name" content="Acme &lt;Legal&gt; &amp; Co">')
    expect(text).toContain('<meta name="description" content="terms.pdf, shared with Acme &lt;Legal&gt; &amp; Co">')
    expect(text).toContain(`<link rel="icon" href="${logo.url}" type="image/png">`)
    // The policy is as strict as ever: styles of our origin only, nothing inline.
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("style-src 'self';")
    expect(csp).not.toContain('unsafe-inline')
    expect(text).not.toMatch(/ style="|<style/)
    // What the page links is served: the stylesheet and the logo, from our origin.
    expect((await branded.call('GET', stylesheet.replace(/^\/base/, ''))).status).toBe(200)
    expect((await branded.call('GET', logo.url.replace(/^\/base/, ''))).headers.get('content-type')).toBe('image/png')
  })

  test('the pages that stand in for a document carry the same bar: a password page, an agreement, a 404, a 410', async () => {
    const password = await addLink(branded, file.id, { password: 'secret words' })
    const agreement = await addLink(branded, file.id, { agreement: 'Keep it to yourself.' })
    const off = await addLink(branded, file.id, { disabled: true })
    const bar = `<body><header class="brand-bar"><span class="brand-mark"><img class="brand-logo" src="${logo.url}" width="400" height="100" alt=""><span class="brand-name">Acme &lt;Legal&gt; &amp; Co</span></span></header>`
    for (const [path, status] of [
      [password.path, 200],
      [agreement.path, 200],
      ['/s/nosuchlinknosuchlink', 404],
      [off.path, 410],
    ] as const) {
      const { response, text } = await pageOf(branded, path)
      expect(response.status).toBe(status)
      expect(text).toContain(bar)
      expect(text).toContain(`<link rel="stylesheet" href="${stylesheet}">`)
      expect(text).not.toContain('terms.pdf')
    }
    const wrong = await branded.call('POST', password.path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=nope',
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain(bar)
  })

  test('a change on the Admin page shows on the next pages (within a second on every instance of a shared install)', async () => {
    await branded.call('PATCH', '/api/admin/branding', {
      token: admin.token,
      body: JSON.stringify({ name: 'Acme Legal LLP', accent: '#8f1a4d' }),
      headers: { 'content-type': 'application/json' },
    })
    const { stylesheet: changed } = await brandingOf(branded, admin.token)
    await eventually(async () => {
      const { text } = await pageOf(branded, sharePathOf(file))
      expect(text).toContain('<span class="brand-name">Acme Legal LLP</span>')
      expect(text).toContain(`<link rel="stylesheet" href="${changed}">`)
    }, 5_000)
    await eventually(async () => {
      const dashboard = await (await branded.call('GET', '/app')).text()
      expect(dashboard).toContain('<title>Acme Legal LLP</title>')
      expect(dashboard).toContain(`data-brand-name="Acme Legal LLP" data-brand-logo="${logo.url}"`)
      expect(dashboard).toContain(`<link rel="stylesheet" href="${changed}">`)
    }, 5_000)
  })
})

describe('an install without branding', async () => {
  const admin = await plain.user('plain-admin')
  const file = await uploadPdf(plain, admin, { bytes: makePdf(), name: 'notes.pdf' })

  test('its pages are as before: pdfshare in link previews and its icon, no mark, no extra stylesheet', async () => {
    const { text } = await pageOf(plain, sharePathOf(file))
    expect(text).toContain('<meta property="og:site_name" content="pdfshare">')
    expect(text).toContain('<meta name="description" content="notes.pdf, shared with pdfshare">')
    expect(text).toMatch(/<link rel="icon" href="\/base\/assets\/favicon-[^"]+\.svg" type="image\/svg\+xml">/)
    expect(text).not.toContain('brand-')
    expect(text).not.toContain('branding.css')
    const gate = await pageOf(plain, (await addLink(plain, file.id, { password: 'secret words' })).path)
    expect(gate.text).toContain('<body><main class="status">')
  })

  test('with pdfshare hidden (and no name, no logo): no word of pdfshare on the viewer or a gate page, no icon', async () => {
    await plain.call('PATCH', '/api/admin/branding', {
      token: admin.token,
      body: JSON.stringify({ hidePdfshare: true }),
      headers: { 'content-type': 'application/json' },
    })
    const gated = await addLink(plain, file.id, { password: 'secret words' })
    await eventually(async () => {
      for (const path of [sharePathOf(file), gated.path, '/s/nosuchlinknosuchlink']) {
        const { text } = await pageOf(plain, path)
        expect(text.toLowerCase()).not.toContain('pdfshare')
        expect(text).toContain('<link rel="icon" href="data:,">')
      }
    }, 5_000)
    const { text } = await pageOf(plain, sharePathOf(file))
    expect(text).not.toContain('og:site_name')
    expect(text).toContain('<meta name="description" content="notes.pdf">')
  })
})
