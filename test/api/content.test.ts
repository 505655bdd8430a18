import { describe, expect, test } from 'bun:test'
import { parse } from 'content-disposition'
import { json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'

const server = await startTestApp()
const alice = await server.user()
const pdf = makePdf({ pages: 5 })
const file = await uploadPdf(server, alice, pdf, { filename: 'Résumé “final”.pdf' })
const fetchContent = (headers: Record<string, string> = {}, method = 'GET') =>
  server.call(method, `/api/files/${file.id}/content`, { token: alice.token, headers })

describe('GET /api/files/:id/content', () => {
  test('200 with the bytes, as an attachment with an RFC 6266 filename*', async () => {
    const response = await fetchContent()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('accept-ranges')).toBe('bytes')
    expect(response.headers.get('content-length')).toBe(String(pdf.length))
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const disposition = response.headers.get('content-disposition')!
    expect(disposition.startsWith('attachment;')).toBe(true)
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Résumé “final”.pdf').replace(/'/g, '%27')}`)
    expect(disposition).toMatch(/filename="[\x20-\x7e]+"/) // an ASCII fallback for old clients
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf)
  })

  test('a strong ETag from the content hash; If-None-Match → 304', async () => {
    const etag = (await fetchContent()).headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    expect(etag.slice(1, -1)).toBe(file.sha256.slice(0, 32))
    const cached = await fetchContent({ 'if-none-match': etag })
    expect(cached.status).toBe(304)
  })

  const ranges: [string, number, number][] = [
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, pdf.length - 1],
    ['bytes=-50', pdf.length - 50, pdf.length - 1],
    [`bytes=10-${pdf.length + 1000}`, 10, pdf.length - 1],
  ]
  for (const [header, start, end] of ranges) {
    test(`Range ${header} → 206 with exactly those bytes`, async () => {
      const response = await fetchContent({ range: header })
      expect(response.status).toBe(206)
      expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${pdf.length}`)
      expect(response.headers.get('content-length')).toBe(String(end - start + 1))
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf.slice(start, end + 1))
    })
  }

  test('an unsatisfiable range → 416 with Content-Range: bytes */size', async () => {
    const response = await fetchContent({ range: `bytes=${pdf.length + 10}-` })
    expect(response.status).toBe(416)
    expect(response.headers.get('content-range')).toBe(`bytes */${pdf.length}`)
    expect((await json(response)).success).toBe(false)
  })

  test('a malformed range is ignored (200, whole file)', async () => {
    const response = await fetchContent({ range: 'pages=1-2' })
    expect(response.status).toBe(200)
    expect((await response.arrayBuffer()).byteLength).toBe(pdf.length)
  })

  test('If-Range with a stale validator → the whole file', async () => {
    const response = await fetchContent({ range: 'bytes=0-9', 'if-range': '"stale"' })
    expect(response.status).toBe(200)
  })
})

/**
 * The one shape every PDF response's Content-Disposition has: pdfshare's own two parameters, in this order,
 * with nothing from the stored name able to open a third. Returns the name a client ends up with.
 */
export function downloadNameOf(header: string, type: 'attachment' | 'inline'): { name: string; fallback: string } {
  const shape = new RegExp(`^${type}; filename="([\\x20-\\x7e]*)"; filename\\*=UTF-8''([A-Za-z0-9!#$&+.^_\`|~%-]*)$`)
  const match = shape.exec(header)
  expect(match, header).not.toBeNull()
  expect(match![1]).not.toMatch(/["\\;*='%]/) // nothing a lax parser could take for the end of the value or a parameter
  expect(header.split('filename*=')).toHaveLength(2)
  expect(parse(header).parameters.filename).toBe(decodeURIComponent(match![2]!)) // what a real parser takes
  return { name: decodeURIComponent(match![2]!), fallback: match![1]! }
}

describe('the download name', () => {
  const cases: [stored: string, name: string, fallback: string][] = [
    ['page.html', 'page.pdf', 'page.pdf'],
    ['logo.SVG', 'logo.pdf', 'logo.pdf'],
    ['setup.exe', 'setup.pdf', 'setup.pdf'],
    ['notes', 'notes.pdf', 'notes.pdf'],
    ['release v1.2', 'release v1.2.pdf', 'release v1.2.pdf'],
    ['Report.PDF', 'Report.PDF', 'Report.PDF'],
    ['trailing.pdf. . ', 'trailing.pdf', 'trailing.pdf'],
    ['Résumé “final”.html', 'Résumé “final”.pdf', 'Resume _final_.pdf'],
    [`x filename*=UTF-8''evil.html`, `x filename*=UTF-8''evil.pdf`, 'x filename__UTF-8__evil.pdf'],
    ['a"; filename="evil.html', 'a"; filename="evil.pdf', 'a__ filename__evil.pdf'],
    ['...', 'document.pdf', 'document.pdf'],
  ]
  test.each(cases)(
    'stored %p → downloaded as %p (ASCII fallback %p), for the owner and on the share link',
    async (stored, name, fallback) => {
      const bob = await server.user()
      const uploaded = await uploadPdf(server, bob, pdf)
      const renamed = await server.call('PUT', `/api/files/${uploaded.id}`, {
        token: bob.token,
        body: JSON.stringify({ filename: stored }),
        headers: { 'content-type': 'application/json' },
      })
      expect(renamed.status).toBe(200)
      const owner = await server.call('GET', `/api/files/${uploaded.id}/content`, { token: bob.token })
      expect(downloadNameOf(owner.headers.get('content-disposition')!, 'attachment')).toEqual({ name, fallback })
      const sharePath = sharePathOf(uploaded)
      for (const [suffix, type] of [
        ['download', 'attachment'],
        ['file', 'inline'],
      ] as const) {
        const shared = await server.call('GET', `${sharePath}/${suffix}`)
        expect(downloadNameOf(shared.headers.get('content-disposition')!, type)).toEqual({ name, fallback })
      }
    },
  )
})
