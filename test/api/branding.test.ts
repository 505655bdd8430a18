import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { BrandingDto } from '../../src/routes/branding/model'
import { json, startTestApp } from '../support/harness'
import { eventually } from '../support/eventually'

// The instance's branding (docs/operations.md, Branding): settings as defaults, the Admin page's changes over them,
// the accent as /branding.css, the logo checked, re-encoded and served from our origin, every change audited.
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-branding-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A logo of `width`×`height`, one colour, in `format`, with `comment` in its metadata when given. */
async function picture(width: number, height: number, format: 'png' | 'jpeg' | 'webp', comment?: string): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#0b6e4f' } })
  const encoded = format === 'png' ? image.png() : format === 'jpeg' ? image.jpeg() : image.webp()
  return (comment ? encoded.withExif({ IFD0: { ImageDescription: comment } }) : encoded).toBuffer()
}
const settingLogo = join(dir, 'setting-logo.png')
writeFileSync(settingLogo, await picture(300, 100, 'png'))

const server = await startTestApp({
  PDFSHARE_BRAND_NAME: 'Acme Legal',
  PDFSHARE_BRAND_ACCENT: '#0B6E4F',
  PDFSHARE_BRAND_LOGO: settingLogo,
})
const root = await server.user('brand-root') // the first user: the admin
const alice = await server.user('brand-alice')

const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })
const asAdmin = (method: string, body?: unknown) =>
  server.call(method, '/api/admin/branding', { token: root.token, ...(body === undefined ? {} : jsonBody(body)) })
const data = async (response: Response, status = 200): Promise<BrandingDto> => {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}
const refusal = async (response: Response, status = 400) => {
  const body = await json(response)
  expect({ status: response.status, success: body.success }).toEqual({ status, success: false })
  return body.error as string
}
const putLogo = (bytes: Uint8Array, type = 'image/png', token = root.token) =>
  server.call('PUT', '/api/admin/branding/logo', { token, body: bytes as Uint8Array<ArrayBuffer>, headers: { 'content-type': type } })
/** A path on the test app from a URL the API gave (the public URL has the base path /base). */
const appPath = (url: string) => url.replace(/^\/base/, '')
const auditOf = async (action: string) =>
  (await json(await server.call('GET', `/api/admin/audit?action=${action}`, { token: root.token }))).data as {
    detail: Record<string, unknown>
  }[]

describe('the branding an admin sees and changes', () => {
  test('at first, the settings: name, accent (with its dark shade), the logo file re-encoded; nothing from the Admin page', async () => {
    const branding = await data(await asAdmin('GET'))
    expect(branding).toMatchObject({
      name: 'Acme Legal',
      accent: '#0b6e4f',
      hidePdfshare: false,
      fromSettings: ['name', 'accent', 'hidePdfshare', 'logo'],
      warnings: [],
      updatedAt: null,
    })
    expect(branding.accentDark).toMatch(/^#[0-9a-f]{6}$/)
    expect(branding.accentDark).not.toBe('#0b6e4f') // too dark to stand out on the dark page as it is
    expect(branding.logo).toMatchObject({ width: 300, height: 100 })
    expect(branding.logo!.url).toMatch(/^\/base\/branding\/logo\/[0-9a-f]{16}\.png$/)
    expect(branding.stylesheet).toMatch(/^\/base\/branding\.css\?v=[0-9a-f]{16}$/)
  })

  test('only admins: another user gets 403, no token 401', async () => {
    expect(await refusal(await server.call('GET', '/api/admin/branding', { token: alice.token }), 403)).toContain('admin')
    expect((await server.call('PATCH', '/api/admin/branding', { token: alice.token, ...jsonBody({ name: 'Mine' }) })).status).toBe(403)
    expect((await putLogo(await picture(10, 10, 'png'), 'image/png', alice.token)).status).toBe(403)
    expect((await server.call('GET', '/api/admin/branding')).status).toBe(401)
  })

  test('PATCH: the fields sent, over the settings; "" shows no name; null goes back to the setting; each change audited', async () => {
    const changed = await data(await asAdmin('PATCH', { name: '  Acme Anwälte ', accent: '#1A4D8F', hidePdfshare: true }))
    expect(changed).toMatchObject({ name: 'Acme Anwälte', accent: '#1a4d8f', hidePdfshare: true, fromSettings: ['logo'] })
    expect(Date.parse(changed.updatedAt!)).toBeGreaterThan(Date.now() - 60_000)
    expect(await data(await asAdmin('GET'))).toEqual(changed)
    const [entry] = await auditOf('branding.changed')
    expect(entry!.detail).toEqual({ changed: 'accent,hidePdfshare,name', name: 'Acme Anwälte', accent: '#1a4d8f', hidePdfshare: true })

    expect(await data(await asAdmin('PATCH', { name: '' }))).toMatchObject({ name: null, accent: '#1a4d8f', fromSettings: ['logo'] })
    const reset = await data(await asAdmin('PATCH', { name: null, accent: null, hidePdfshare: null, unknown: 1 }))
    expect(reset).toMatchObject({
      name: 'Acme Legal',
      accent: '#0b6e4f',
      hidePdfshare: false,
      fromSettings: ['name', 'accent', 'hidePdfshare', 'logo'],
    })
  })

  test('an accent that stands out little on white is saved with a warning that says so', async () => {
    const pale = await data(await asAdmin('PATCH', { accent: '#ffd400' }))
    expect(pale.warnings).toEqual([
      'The accent #ffd400 stands out little on white pages (contrast 1.4:1): buttons, links and focus rings drawn in it are hard to see. At least 3:1 is advised, 4.5:1 for links; choose a darker colour.',
    ])
    expect(pale.accentDark).toBe('#ffd400') // light enough for the dark page as it is
    const middling = await data(await asAdmin('PATCH', { accent: '#2f9e44' }))
    expect(middling.warnings[0]).toStartWith('Links drawn in the accent #2f9e44 are hard to read on white pages (contrast 3.')
    expect((await data(await asAdmin('PATCH', { accent: null }))).warnings).toEqual([])
  })

  const invalid: [string, unknown, string][] = [
    ['an accent by name', { accent: 'teal' }, 'accent must be a colour written #rrggbb, e.g. "#0b6e4f", or null for the server’s setting'],
    ['a short accent', { accent: '#0b6' }, 'accent must be a colour written #rrggbb, e.g. "#0b6e4f", or null for the server’s setting'],
    [
      'an accent with CSS in it',
      { accent: '#0b6e4f; } body { display: none' },
      'accent must be a colour written #rrggbb, e.g. "#0b6e4f", or null for the server’s setting',
    ],
    ['a long name', { name: 'x'.repeat(61) }, 'name must be at most 60 characters'],
    [
      'a name with a bidi override',
      { name: 'Acme\u202Egel' },
      'name must not contain U+202E (control, line separator or bidirectional formatting characters)',
    ],
    ['a name that is a number', { name: 5 }, 'name must be a string, "" for none, or null for the server’s setting'],
    ['hidePdfshare a word', { hidePdfshare: 'yes' }, 'hidePdfshare must be true or false, or null for the server’s setting'],
  ]
  test.each(invalid)('refuses %s with a clear 400, and changes nothing', async (_name, body, message) => {
    const before = await data(await asAdmin('GET'))
    expect(await refusal(await asAdmin('PATCH', body))).toBe(message)
    expect(await data(await asAdmin('GET'))).toEqual(before)
  })
})

describe('/branding.css', () => {
  test('the accent as CSS custom properties, light and dark; versioned: a year; plain: revalidated with a strong ETag', async () => {
    const { stylesheet, accentDark } = await data(await asAdmin('PATCH', { accent: '#0b6e4f' }))
    await eventually(async () => {
      const versioned = await server.call('GET', appPath(stylesheet!))
      expect(versioned.status).toBe(200)
      const css = await versioned.text()
      expect(css).toContain(':root { --accent: #0b6e4f; --accent-text: #ffffff; --focus: #0b6e4f; --chart-bar: #0b6e4f; }')
      expect(css).toContain(`@media (prefers-color-scheme: dark) {\n  :root { --accent: ${accentDark}; --accent-text: #111111;`)
      expect(versioned.headers.get('content-type')).toBe('text/css; charset=utf-8')
      expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(versioned.headers.get('x-content-type-options')).toBe('nosniff')
      expect(versioned.headers.get('etag')).toBe(`"${stylesheet!.split('v=')[1]}"`)
    }, 5_000)
    const plain = await server.call('GET', '/branding.css')
    expect(plain.headers.get('cache-control')).toBe('public, no-cache')
    const again = await server.call('GET', '/branding.css', { headers: { 'if-none-match': plain.headers.get('etag')! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    // A new accent is a new version; the old address answers the current text, no longer for a year.
    const changed = await data(await asAdmin('PATCH', { accent: '#8f1a4d' }))
    expect(changed.stylesheet).not.toBe(stylesheet)
    await eventually(async () => {
      const old = await server.call('GET', appPath(stylesheet!))
      expect(await old.text()).toContain('--accent: #8f1a4d;')
      expect(old.headers.get('cache-control')).toBe('public, no-cache')
    }, 5_000)
    await asAdmin('PATCH', { accent: null })
  })
})

describe('the logo', () => {
  test('PNG, JPEG or WebP: scaled down to fit 720×144, served as a new PNG without its metadata; removed, the setting’s is back', async () => {
    const before = (await data(await asAdmin('GET'))).logo!
    for (const [format, type] of [
      ['jpeg', 'image/jpeg'],
      ['webp', 'image/webp'],
      ['png', 'image/png'],
    ] as const) {
      const sent = await picture(2000, 500, format, 'taken at 52.52N 13.40E by the CEO')
      const branding = await data(await putLogo(sent, type))
      expect(branding.logo).toMatchObject({ width: 576, height: 144 })
      expect(branding.fromSettings).not.toContain('logo')
      const served = await server.call('GET', appPath(branding.logo!.url))
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/png')
      expect(served.headers.get('x-content-type-options')).toBe('nosniff')
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const bytes = Buffer.from(await served.arrayBuffer())
      expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
      expect(bytes.byteLength).toBe(branding.logo!.bytes)
      expect(bytes.toString('latin1')).not.toContain('52.52N')
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 576, height: 144 })
    }
    const [entry] = await auditOf('branding.logo_set')
    expect(entry!.detail).toMatchObject({ width: 576, height: 144 })
    const own = (await data(await asAdmin('GET'))).logo!

    const removed = await data(await server.call('DELETE', '/api/admin/branding/logo', { token: root.token }))
    expect(removed.logo).toEqual(before)
    expect(removed.fromSettings).toContain('logo')
    expect((await server.call('GET', appPath(own.url))).status).toBe(404) // an address of a logo that is gone
    expect((await server.call('GET', appPath(before.url))).status).toBe(200)
    expect(await auditOf('branding.logo_removed')).toHaveLength(1)
    expect((await server.call('GET', '/branding/logo/..%2f..%2fpdfshare.db')).status).toBe(404)
  })

  test('a small logo is not enlarged', async () => {
    const branding = await data(await putLogo(await picture(64, 32, 'png')))
    expect(branding.logo).toMatchObject({ width: 64, height: 32 })
    await server.call('DELETE', '/api/admin/branding/logo', { token: root.token })
  })

  test('refused, with what is wrong, and nothing changes: SVG, other types, a wrong file, too large, too many pixels', async () => {
    const before = await data(await asAdmin('GET'))
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    expect(await refusal(await putLogo(svg, 'image/svg+xml'), 415)).toBe(
      'Send the logo as image/png, image/jpeg, image/webp: SVG is not accepted, since an SVG file is a document that can carry scripts and links: save it as a PNG',
    )
    expect(await refusal(await putLogo(svg, 'image/png'))).toBe(
      'The logo must be a PNG, JPEG or WebP image; SVG is not accepted, since an SVG file is a document that can carry scripts and links: save it as a PNG',
    )
    expect(await refusal(await putLogo(await picture(10, 10, 'png'), 'image/gif'), 415)).toBe(
      'Content-Type must be image/png, image/jpeg, image/webp (got image/gif); the body is the image itself',
    )
    expect(await refusal(await putLogo(new TextEncoder().encode('%PDF-1.7 not a picture')))).toBe(
      'The logo must be a PNG, JPEG or WebP image; this file is none of them',
    )
    const truncated = (await picture(400, 100, 'png')).subarray(0, 60)
    expect(await refusal(await putLogo(truncated))).toStartWith('The logo must be a PNG, JPEG or WebP image; this PNG file cannot be read')
    const jpegAsPng = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), await picture(40, 40, 'jpeg')])
    expect(await refusal(await putLogo(jpegAsPng))).toStartWith('The logo must be a PNG, JPEG or WebP image; this PNG file cannot be read')
    const large = Buffer.concat([await picture(10, 10, 'png'), Buffer.alloc(1024 * 1024)])
    expect(await refusal(await putLogo(large), 413)).toBe('The logo must be at most 1 MB')
    // A PNG whose header says 8000×6000: 90 bytes that would decode into 48 megapixels.
    const huge = Buffer.from(await picture(1, 1, 'png'))
    huge.writeUInt32BE(8000, 16)
    huge.writeUInt32BE(6000, 20)
    huge.writeUInt32BE(Bun.hash.crc32(huge.subarray(12, 29)) >>> 0, 29)
    expect(await refusal(await putLogo(huge))).toBe('The logo must be a PNG, JPEG or WebP image; this picture has more than 40 megapixels')
    expect(await data(await asAdmin('GET'))).toEqual(before)
  })
})
