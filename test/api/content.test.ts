import { describe, expect, test } from 'bun:test'
import { form, json, startTestApp } from '../support/harness'
import { makePdf } from '../support/pdf'

const server = await startTestApp()
const alice = await server.user()
const pdf = makePdf({ pages: 5 })
const file = (await json(await server.call('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: pdf }, { filename: 'Résumé “final”.pdf' }) }))).data
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
