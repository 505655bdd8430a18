import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { eventually } from '../support/eventually'
import { form, json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

const server = await startTestApp()
const owner = await server.user('owner')
const pdf = makePdf({ pages: 3 })

async function share(fields: Record<string, string> = {}, bytes: Uint8Array = pdf) {
  const file = await uploadPdf(server, owner, { bytes, name: 'Report.pdf' }, fields)
  return { ...file, path: sharePathOf(file) }
}
const visit = (path: string, headers: Record<string, string> = {}) =>
  server.call('GET', path, { headers: { 'user-agent': FIREFOX, ...headers } })
// In process, for the tests of the preview cache in this process's data dir (behind a balancer each instance has its own).
const visitInProcess = (path: string, headers: Record<string, string> = {}) =>
  server.callInProcess('GET', path, { headers: { 'user-agent': FIREFOX, ...headers } })
const meta = (page: string, attr: 'name' | 'property', key: string) =>
  new RegExp(`<meta ${attr}="${key}" content="([^"]*)">`).exec(page)?.[1]

describe('GET /s/:slug (the viewer page)', () => {
  test('server-rendered head: title, description, canonical, Open Graph and Twitter tags with absolute URLs', async () => {
    const file = await share({ title: 'Quarterly report', desc: 'Numbers for Q3' })
    const response = await visit(file.path)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const page = await response.text()
    expect(page).toContain('<title>Quarterly report</title>')
    expect(meta(page, 'name', 'description')).toBe('Numbers for Q3')
    expect(page).toContain(`<link rel="canonical" href="${file.shareUrl}">`)
    expect(meta(page, 'property', 'og:title')).toBe('Quarterly report')
    expect(meta(page, 'property', 'og:description')).toBe('Numbers for Q3')
    expect(meta(page, 'property', 'og:url')).toBe(file.shareUrl)
    expect(meta(page, 'property', 'og:image')).toStartWith(`${file.shareUrl}/preview.png`)
    expect(meta(page, 'name', 'twitter:card')).toBe('summary_large_image')
    expect(meta(page, 'name', 'twitter:image')).toBe(meta(page, 'property', 'og:image'))
    // Links within the site carry the public URL's path prefix (reverse proxy at /base).
    expect(page).toContain(`data-file="/base/s/${file.path.split('/')[2]}/file"`)
    expect(page).toMatch(/<script type="module" src="\/base\/assets\/boot-[\w]+\.js"><\/script>/)
    expect(page).toMatch(/ data-viewer="\/base\/assets\/viewer-[\w]+\.js" /)
  })

  test('the title falls back to the filename', async () => {
    const file = await share({ filename: 'Fallback name.pdf' })
    const page = await (await visit(file.path)).text()
    expect(page).toContain('<title>Fallback name.pdf</title>')
    expect(meta(page, 'property', 'og:title')).toBe('Fallback name.pdf')
  })

  test('hostile titles, descriptions and filenames are escaped everywhere', async () => {
    const attack = `"><script>alert(1)</script><img src=x onerror=alert(2)>'`
    const file = await share({ title: attack, desc: attack })
    const page = await (await visit(file.path)).text()
    // A filename cannot contain "/", but it can carry the rest.
    const named = await (await visit((await share({ filename: `"><img src=x onerror=alert(3)>.pdf` })).path)).text()
    expect(named).not.toContain('<img src=x')
    expect(named).toContain('<title>&quot;&gt;&lt;img src=x onerror=alert(3)&gt;.pdf</title>')
    expect(page).not.toContain('<script>alert')
    expect(page).not.toContain('<img src=x')
    expect(page).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(meta(page, 'property', 'og:title')).toBe(
      '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;',
    )
  })

  test('a strict CSP: own origin only, no inline script, no eval; no referrer; nosniff', async () => {
    const response = await visit((await share()).path)
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/https?:/)
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const page = await response.text()
    // Every script is an external file; the one other script element is the viewer's words, a JSON data block that
    // never runs (docs/languages.md).
    expect(page).not.toMatch(/<script(?![^>]*\b(?:src=|type="application\/json"))[^>]*>/)
    expect(page).not.toMatch(/\son[a-z]+=/i) // no inline event handlers
  })

  test('searchEngineVisible false → robots meta and X-Robots-Tag noindex, nofollow; true → neither', async () => {
    const hidden = await share()
    const hiddenResponse = await visit(hidden.path)
    expect(hiddenResponse.headers.get('x-robots-tag')).toBe('noindex, nofollow')
    expect(await hiddenResponse.text()).toContain('<meta name="robots" content="noindex, nofollow">')
    for (const suffix of ['/file', '/download', '/preview.png']) {
      expect((await visit(hidden.path + suffix)).headers.get('x-robots-tag')).toBe('noindex, nofollow')
    }
    const visible = await share({ searchEngineVisible: 'true' })
    const visibleResponse = await visit(visible.path)
    expect(visibleResponse.headers.get('x-robots-tag')).toBeNull()
    expect(await visibleResponse.text()).not.toContain('name="robots"')
    for (const suffix of ['/file', '/download', '/preview.png']) {
      expect((await visit(visible.path + suffix)).headers.get('x-robots-tag')).toBeNull()
    }
  })

  test('allowDownload decides whether a download button is on the page', async () => {
    const allowed = await (await visit((await share()).path)).text()
    expect(allowed).toMatch(/<a id="download"[^>]*href="\/base\/s\/[\w-]+\/download"/)
    const denied = await (await visit((await share({ allowDownload: 'false' })).path)).text()
    expect(denied).not.toContain('id="download"')
    expect(denied).not.toContain('/download')
    // Nor the PDF itself: the page shows the pages drawn on the server.
    expect(denied).toContain('data-mode="images"')
    expect(denied).not.toContain('data-file=')
  })

  test('an unknown slug, a malformed slug or an unknown sub-path → 404 HTML page', async () => {
    for (const path of ['/s/AAAAAAAAAAAAAAAAAAAAAA', '/s/..%2F..', '/s/AAAAAAAAAAAAAAAAAAAAAA/file', `${(await share()).path}/nothing`]) {
      const response = await visit(path)
      expect(`${path} ${response.status}`).toBe(`${path} 404`)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await response.text()).toContain('<title>Not found</title>')
    }
  })

  test('a deleted file’s link answers 404', async () => {
    const file = await share()
    await server.call('DELETE', `/api/files/${file.id}`, { token: owner.token })
    expect((await visit(file.path)).status).toBe(404)
    expect((await visit(`${file.path}/file`)).status).toBe(404)
  })
})

describe('GET /s/:slug/file', () => {
  test('the bytes inline, with every header of the contract', async () => {
    const file = await share()
    const response = await visit(`${file.path}/file`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toStartWith('inline;')
    expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''Report.pdf")
    expect(response.headers.get('accept-ranges')).toBe('bytes')
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/)
    expect(response.headers.get('cache-control')).toBe('private, no-cache')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    // Sandboxed when opened directly, and never framed by another site (where the browser's own PDF viewer
    // would run the PDF's scripts inside someone else's page).
    expect(response.headers.get('content-security-policy')).toBe("sandbox; frame-ancestors 'self'")
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf)
  })

  test('Range → 206 with exactly the asked bytes', async () => {
    const file = await share()
    const response = await visit(`${file.path}/file`, { range: 'bytes=100-299' })
    expect(response.status).toBe(206)
    expect(response.headers.get('content-range')).toBe(`bytes 100-299/${pdf.length}`)
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf.slice(100, 300))
  })

  test('the ETag changes when the PDF is replaced, and not otherwise', async () => {
    const file = await share()
    const before = (await visit(`${file.path}/file`)).headers.get('etag')
    await server.call('PUT', `/api/files/${file.id}`, {
      token: owner.token,
      body: JSON.stringify({ title: 'renamed' }),
      headers: { 'content-type': 'application/json' },
    })
    expect((await visit(`${file.path}/file`)).headers.get('etag')).toBe(before)
    await server.call('PUT', `/api/files/${file.id}`, {
      token: owner.token,
      body: form({ bytes: makePdf({ pages: 1, text: () => 'new' }) }),
    })
    const after = (await visit(`${file.path}/file`)).headers.get('etag')
    expect(after).not.toBe(before)
    expect((await visit(`${file.path}/file`, { 'if-none-match': before! })).status).toBe(200)
    expect((await visit(`${file.path}/file`, { 'if-none-match': after! })).status).toBe(304)
  })
})

describe('GET /s/:slug/download', () => {
  test('allowed → the PDF as an attachment; not allowed → 403 page', async () => {
    const allowed = await share({ filename: 'Überblick 2026.pdf' })
    const response = await visit(`${allowed.path}/download`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toStartWith('attachment;')
    expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Überblick 2026.pdf')}`)
    expect(response.headers.get('content-security-policy')).toBe("sandbox; frame-ancestors 'self'")
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf)
    for (const range of ['bytes=0-99', 'bytes=999999-']) {
      // Partial and refused answers carry the same policy.
      expect((await visit(`${allowed.path}/download`, { range })).headers.get('content-security-policy')).toBe(
        "sandbox; frame-ancestors 'self'",
      )
    }

    const denied = await share({ allowDownload: 'off' })
    const refused = await visit(`${denied.path}/download`)
    expect(refused.status).toBe(403)
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await refused.text()).not.toContain('%PDF')
  })
})

describe('GET /s/:slug/preview.png', () => {
  test('page 1 as a 1200×630 PNG, cached on disk by blob, regenerated after a replacement', async () => {
    const file = await share()
    const first = await visitInProcess(`${file.path}/preview.png`)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/png')
    const png = Buffer.from(await first.arrayBuffer())
    const info = await sharp(png).metadata()
    expect([info.format, info.width, info.height]).toEqual(['png', 1200, 630])
    const stats = await sharp(png).stats()
    expect(stats.channels[0]!.min).toBeLessThan(100) // the text of page 1 is there: not a blank image

    const cached = readdirSync(join(server.dataDir, 'previews')).filter((name) => name.endsWith('.png'))
    expect(cached.length).toBeGreaterThan(0)
    const again = Buffer.from(await (await visitInProcess(`${file.path}/preview.png`)).arrayBuffer())
    expect(again.equals(png)).toBe(true)
    expect((await visitInProcess(`${file.path}/preview.png`, { 'if-none-match': first.headers.get('etag')! })).status).toBe(304)

    await server.callInProcess('PUT', `/api/files/${file.id}`, {
      token: owner.token,
      body: form({ bytes: makePdf({ text: () => 'A completely different first page with much more text' }) }),
    })
    const replaced = Buffer.from(await (await visitInProcess(`${file.path}/preview.png`)).arrayBuffer())
    expect(replaced.equals(png)).toBe(false)
    const now = readdirSync(join(server.dataDir, 'previews')).filter((name) => name.endsWith('.png'))
    // The old blob is kept as a previous version (PDFSHARE_MAX_VERSIONS), and its preview with it, for a restore.
    expect(now.length).toBe(cached.length + 1)
  })

  test('concurrent requests for one file share one render', async () => {
    const file = await share({ title: 'concurrent' })
    // The cards and their temp files: page images (`<blob>.p1-w800.webp`, drawn in the background for pages an
    // earlier test opened) come and go beside them.
    const cards = () => readdirSync(join(server.dataDir, 'previews')).filter((name) => !/\.p(\d+[-.]|w-)/.test(name))
    const before = cards().length
    const responses = await Promise.all(Array.from({ length: 6 }, () => visitInProcess(`${file.path}/preview.png`)))
    const bodies = await Promise.all(responses.map(async (r) => Buffer.from(await r.arrayBuffer())))
    for (const body of bodies) expect(body.equals(bodies[0]!)).toBe(true)
    // One cached file, no temp file left over by a second render racing the first.
    expect(cards().length).toBe(before + 1)
    expect(cards().filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  test('a PDF that cannot be rendered gets the neutral placeholder, and the failure is remembered', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\nthis is not really a PDF at all\n%%EOF\n')
    const file = await share({}, broken)
    const response = await visitInProcess(`${file.path}/preview.png`)
    expect(response.status).toBe(200)
    const info = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
    expect([info.width, info.height]).toEqual([1200, 630])
    expect(readdirSync(join(server.dataDir, 'previews')).some((name) => name.endsWith('.failed'))).toBe(true)
    expect(server.log.lines.some((line) => line.startsWith(`preview of file ${file.id}: PDFium cannot open it`))).toBe(true)
  })

  test('deleting the file removes its cached preview', async () => {
    const file = await share({ title: 'to delete' })
    await visitInProcess(`${file.path}/preview.png`)
    // Its own card, by name: page 1 drawn in the background may add files to the folder meanwhile.
    const { blobKey } = (await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, file.id) }))!
    const card = server.ctx.previews.pathOf(blobKey)
    // A render slower than the request's wait is answered with the placeholder and lands a little later.
    await eventually(() => expect(existsSync(card)).toBe(true))
    await server.callInProcess('DELETE', `/api/files/${file.id}`, { token: owner.token })
    expect(existsSync(card)).toBe(false)
  })
})

describe('viewer assets', () => {
  test('served from the build manifest only, compressed when the client accepts it, cached for a year', async () => {
    const page = await (await visit((await share()).path)).text()
    const script = /data-viewer="\/base\/assets\/([^"]+)"/.exec(page)![1]!
    const plain = await server.call('GET', `/assets/${script}`)
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const plainBytes = (await plain.arrayBuffer()).byteLength
    const brotli = await server.call('GET', `/assets/${script}`, { headers: { 'accept-encoding': 'gzip, br' } })
    expect(brotli.headers.get('content-encoding')).toBe('br')
    expect(brotli.headers.get('vary')).toBe('Accept-Encoding')
    const worker = await server.call('GET', `/assets/${/data-pdfjs="\/base\/assets\/([^"]+)"/.exec(page)![1]}pdf.worker.min.mjs`)
    expect(worker.status).toBe(200)
    expect(worker.headers.get('content-security-policy')).not.toContain("'unsafe-eval'")
    expect(plainBytes).toBeGreaterThan(10_000)
    for (const path of ['/assets/manifest.json.bak', '/assets/../package.json', '/assets/%2e%2e/package.json', '/assets/pdfjs-0/x.js']) {
      expect((await server.call('GET', path)).status).toBe(404)
    }
  })
})

describe("pdf.js's annotation icons", () => {
  test('served where the viewer asks for them, as SVG cached for a year; an icon pdf.js does not ship is the Note icon', async () => {
    const page = await (await visit((await share()).path)).text()
    const images = `/assets/${/data-pdfjs="\/base\/assets\/([^"]+)"/.exec(page)![1]}images`
    const note = await server.call('GET', `${images}/annotation-note.svg`)
    expect(note.status).toBe(200)
    expect(note.headers.get('content-type')).toBe('image/svg+xml')
    expect(note.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(note.headers.get('x-content-type-options')).toBe('nosniff')
    const noteSvg = await note.text()
    expect(noteSvg).toContain('<svg')
    for (const name of ['comment', 'help', 'insert', 'key', 'newparagraph', 'paragraph', 'noicon', 'check', 'paperclip', 'pushpin']) {
      const icon = await server.call('GET', `${images}/annotation-${name}.svg`)
      expect(icon.status).toBe(200)
      expect(await icon.text()).not.toBe(noteSvg)
    }
    // Acrobat's non-standard names and made-up ones: the Note icon, not a 404.
    for (const name of ['circle', 'star', 'my%20own%20icon']) {
      const icon = await server.call('GET', `${images}/annotation-${name}.svg`)
      expect(icon.status).toBe(200)
      expect(await icon.text()).toBe(noteSvg)
    }
    // Nothing else of the folder, and nothing outside it, is served that way.
    for (const path of [
      `${images}/annotation-note.png`,
      `${images}/toolbarButton-print.svg`,
      `${images}/annotation-a/b.svg`,
      '/assets/images/annotation-note.svg',
    ]) {
      expect((await server.call('GET', path)).status).toBe(404)
    }
  })
})

describe('rate limit on /s/*', () => {
  test('per client IP: 429 with Retry-After over the limit', async () => {
    const limited = await startTestApp({ PDFSHARE_RATE_LIMIT_SHARE: '3' })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await limited.call('GET', '/s/AAAAAAAAAAAAAAAAAAAAAA')).status)
    expect(statuses).toEqual([404, 404, 404, 429])
    const refused = await limited.call('GET', '/s/AAAAAAAAAAAAAAAAAAAAAA')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await json(refused)).code).toBe('rate_limited')
    expect(existsSync(limited.dataDir)).toBe(true)
  })
})
