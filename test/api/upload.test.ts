import { describe, expect, test } from 'bun:test'
import { HARD_MAX_FILE_SIZE } from '../../src/config'
import { form, json, rawMultipart, startTestApp, tempFilesOf } from '../support/harness'
import { makePdf, pdfOfSize } from '../../scripts/support/pdf'

const server = await startTestApp()
const alice = await server.user('alice')
const pdf = makePdf({ pages: 2 })

const upload = (body: BodyInit, headers: Record<string, string> = {}) =>
  server.call('POST', '/api/files/upload', { token: alice.token, body, headers })
const inProcessUpload = (body: BodyInit, headers: Record<string, string> = {}) =>
  server.callInProcess('POST', '/api/files/upload', { token: alice.token, body, headers })

const tempFiles = () => tempFilesOf(server)

describe('POST /api/files/upload', () => {
  test('201 with every field of the File resource and the interface defaults', async () => {
    const response = await upload(form({ bytes: pdf, name: 'Q3 report.pdf' }))
    expect(response.status).toBe(201)
    const { success, data } = await json(response)
    expect(success).toBe(true)
    expect(Object.keys(data).sort()).toEqual(
      [
        'allowDownload',
        'contentType',
        'createdAt',
        'desc',
        'description',
        'fileSize',
        'filename',
        'id',
        'searchEngineVisible',
        'sha256',
        'shareUrl',
        'source',
        'title',
        'updatedAt',
        'views',
      ].sort(),
    )
    expect(data.source).toBeNull() // the owner's own upload, not a file request's
    expect(data.filename).toBe('Q3 report.pdf')
    expect(data.title).toBe('')
    expect(data.desc).toBe('')
    expect(data.description).toBe('')
    expect(data.fileSize).toBe(pdf.length)
    expect(data.contentType).toBe('application/pdf')
    expect(data.allowDownload).toBe(true)
    expect(data.searchEngineVisible).toBe(false)
    expect(data.views).toBe(0)
    expect(data.sha256).toBe(new Bun.CryptoHasher('sha256').update(pdf).digest('hex'))
    expect(data.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    expect(data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(data.updatedAt).toBe(data.createdAt)
  })

  test('shareUrl is <public-url>/s/<slug> with a slug of at least 128 bits that is not the id', async () => {
    const { data } = await json(await upload(form({ bytes: pdf })))
    const match = /^https:\/\/pdf\.example\.test\/base\/s\/([A-Za-z0-9_-]+)$/.exec(data.shareUrl)
    expect(match).not.toBeNull()
    const slug = match![1]!
    expect(slug).not.toBe(data.id)
    expect(Buffer.from(slug, 'base64url').length).toBeGreaterThanOrEqual(16)
  })

  test('the stored bytes are exactly the uploaded bytes', async () => {
    const { data } = await json(await upload(form({ bytes: pdf })))
    const content = await server.call('GET', `/api/files/${data.id}/content`, { token: alice.token })
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(pdf)
  })

  test('metadata fields are stored, and may come after the file part', async () => {
    for (const fileLast of [false, true]) {
      const fields = { filename: 'shown.pdf', title: 'Title', desc: 'Line one\nLine two', allowDownload: 'no', searchEngineVisible: 'yes' }
      const { data } = await json(await upload(form({ bytes: pdf }, fields, fileLast)))
      expect(data).toMatchObject({
        filename: 'shown.pdf',
        title: 'Title',
        desc: 'Line one\nLine two',
        description: 'Line one\nLine two',
        allowDownload: false,
        searchEngineVisible: true,
      })
    }
  })

  describe('boolean forms', () => {
    const cases: [string, boolean][] = [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['yes', true],
      ['no', false],
      ['on', true],
      ['off', false],
      ['TRUE', true],
      [' Off ', false],
      ['Yes', true],
    ]
    for (const [raw, expected] of cases) {
      test(`${JSON.stringify(raw)} → ${expected}`, async () => {
        const { data } = await json(await upload(form({ bytes: pdf }, { allowDownload: raw, searchEngineVisible: raw })))
        expect(data.allowDownload).toBe(expected)
        expect(data.searchEngineVisible).toBe(expected)
      })
    }
    for (const raw of ['', 'maybe', '2', 'nope', 'truee']) {
      test(`${JSON.stringify(raw)} → 400 naming the field and the accepted values`, async () => {
        const response = await upload(form({ bytes: pdf }, { searchEngineVisible: raw }))
        expect(response.status).toBe(400)
        const body = await json(response)
        expect(body).toMatchObject({ success: false, code: 'invalid_request' })
        expect(body.error).toContain('searchEngineVisible')
        expect(body.error).toContain('true, false, 1, 0, yes, no, on, off')
      })
    }
  })

  describe('text limits, counted in code points after NFC', () => {
    const limits = { filename: 255, title: 160, desc: 500 } as const
    // "😀" is 2 UTF-16 units but one code point; "e\u0301" is two code points that NFC folds into one "é".
    for (const [field, max] of Object.entries(limits)) {
      const fill = (n: number) => (field === 'filename' ? `${'😀'.repeat(n - 4)}.pdf` : '😀'.repeat(n))
      test(`${field}: ${max} accepted, ${max + 1} refused`, async () => {
        const ok = await upload(form({ bytes: pdf }, { [field]: fill(max) }))
        expect(ok.status).toBe(201)
        expect((await json(ok)).data[field]).toBe(fill(max))
        const tooLong = await upload(form({ bytes: pdf }, { [field]: fill(max + 1) }))
        expect(tooLong.status).toBe(400)
        expect((await json(tooLong)).error).toBe(`${field} must be at most ${max} characters`)
      })
      test(`${field}: combining sequences count after NFC`, async () => {
        const decomposed = field === 'filename' ? `${'e\u0301'.repeat(max - 4)}.pdf` : 'e\u0301'.repeat(max)
        const response = await upload(form({ bytes: pdf }, { [field]: decomposed }))
        expect(response.status).toBe(201)
        expect((await json(response)).data[field]).toBe(decomposed.normalize('NFC'))
      })
    }
    test('control characters are refused; tab and line feed are allowed in desc only', async () => {
      expect((await upload(form({ bytes: pdf }, { title: 'a\u0007b' }))).status).toBe(400)
      expect((await upload(form({ bytes: pdf }, { title: 'a\tb' }))).status).toBe(400)
      expect((await upload(form({ bytes: pdf }, { desc: 'a\u0000b' }))).status).toBe(400)
      expect((await upload(form({ bytes: pdf }, { desc: 'a\u007Fb' }))).status).toBe(400)
      const ok = await upload(form({ bytes: pdf }, { desc: 'a\tb\nc' }))
      expect(ok.status).toBe(201)
      expect((await json(ok)).data.desc).toBe('a\tb\nc')
    })
    test('characters that disguise text are refused in every text field, naming it: bidi overrides and isolates, C1 controls, line and paragraph separators', async () => {
      const hex = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
      for (const char of [
        '\u202A',
        '\u202B',
        '\u202C',
        '\u202D',
        '\u202E',
        '\u2066',
        '\u2067',
        '\u2068',
        '\u2069',
        '\u0080',
        '\u0085',
        '\u009F',
        '\u2028',
        '\u2029',
      ]) {
        for (const field of ['filename', 'title', 'desc', 'description']) {
          const response = await upload(form({ bytes: pdf }, { [field]: `invoice${char}fdp.pdf` }))
          expect(`${field} ${hex(char)} ${response.status}`).toBe(`${field} ${hex(char)} 400`)
          expect((await json(response)).error).toBe(
            `${field} must not contain ${hex(char)} (control, line separator or bidirectional formatting characters)`,
          )
        }
        const part = await upload(form({ bytes: pdf, name: `invoice${char}fdp.pdf` }))
        expect(`part ${hex(char)} ${part.status}`).toBe(`part ${hex(char)} 400`)
        expect((await json(part)).error).toStartWith('the uploaded file name must not contain')
      }
      const file = (await json(await upload(form({ bytes: pdf })))).data
      const renamed = await server.call('PUT', `/api/files/${file.id}`, {
        token: alice.token,
        body: JSON.stringify({ filename: 'invoice\u202Efdp.exe' }),
        headers: { 'content-type': 'application/json' },
      })
      expect(renamed.status).toBe(400)
      expect((await json(renamed)).error).toStartWith('filename must not contain U+202E')
      // Right-to-left text needs the plain direction marks; they stay allowed.
      expect((await upload(form({ bytes: pdf }, { title: 'שלום\u200F (2026)' }))).status).toBe(201)
    })
    test('CRLF from a browser textarea is stored as LF', async () => {
      const { data } = await json(await upload(form({ bytes: pdf }, { desc: 'one\r\ntwo' })))
      expect(data.desc).toBe('one\ntwo')
    })
  })

  describe('desc and description', () => {
    test('description is accepted in place of desc', async () => {
      const { data } = await json(await upload(form({ bytes: pdf }, { description: 'via description' })))
      expect(data.desc).toBe('via description')
      expect(data.description).toBe('via description')
    })
    test('both with the same value are accepted', async () => {
      const response = await upload(form({ bytes: pdf }, { desc: 'same', description: 'same' }))
      expect(response.status).toBe(201)
    })
    test('both with different values → 400', async () => {
      const response = await upload(form({ bytes: pdf }, { desc: 'one', description: 'two' }))
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain('desc and description')
    })
  })

  describe('filename', () => {
    test('defaults to the uploaded name reduced to its basename', async () => {
      for (const name of ['C:\\Users\\bob\\My Report.pdf', '../../etc/My Report.pdf']) {
        const { body, contentType } = rawMultipart([{ name: 'file', filename: name, type: 'application/pdf', body: pdf }])
        const response = await upload(body, { 'content-type': contentType })
        expect(response.status).toBe(201)
        expect((await json(response)).data.filename).toBe('My Report.pdf')
      }
    })
    test('a UTF-8 uploaded name is kept', async () => {
      const { data } = await json(await upload(form({ bytes: pdf, name: 'Übersicht – 2026 📄.pdf' })))
      expect(data.filename).toBe('Übersicht – 2026 📄.pdf')
    })
    test('an empty filename field or one with a slash → 400', async () => {
      for (const filename of ['', '   ', 'a/b.pdf', 'a\\b.pdf']) {
        const response = await upload(form({ bytes: pdf }, { filename }))
        expect(response.status).toBe(400)
        expect((await json(response)).code).toBe('invalid_request')
      }
    })
  })

  describe('the three PDF checks, each failing alone', () => {
    test('extension', async () => {
      const response = await upload(form({ bytes: pdf, name: 'report.txt' }))
      expect(response.status).toBe(415)
      const body = await json(response)
      expect(body.code).toBe('not_pdf')
      expect(body.error).toContain('.pdf extension')
      expect(body.error).toContain('report.txt')
    })
    test('extension check is case-insensitive', async () => {
      expect((await upload(form({ bytes: pdf, name: 'REPORT.PDF' }))).status).toBe(201)
    })
    test('content type', async () => {
      const response = await upload(form({ bytes: pdf, type: 'text/plain' }))
      expect(response.status).toBe(415)
      const body = await json(response)
      expect(body.code).toBe('not_pdf')
      expect(body.error).toBe('Uploaded file must have content type application/pdf (got text/plain)')
    })
    test('application/x-pdf is accepted', async () => {
      expect((await upload(form({ bytes: pdf, type: 'application/x-pdf' }))).status).toBe(201)
    })
    test('signature', async () => {
      const response = await upload(form({ bytes: new TextEncoder().encode('PK\u0003\u0004 not a pdf at all') }))
      expect(response.status).toBe(415)
      const body = await json(response)
      expect(body.code).toBe('not_pdf')
      expect(body.error).toBe(
        'Uploaded file is not a PDF: %PDF- must appear in its first 1,024 bytes (got "PK\\u0003\\u0004 not a pdf a…")',
      )
    })
    test('a file shorter than the signature', async () => {
      const response = await upload(form({ bytes: new TextEncoder().encode('%PD') }))
      expect(response.status).toBe(415)
    })
    test('an empty file fails the signature check', async () => {
      const response = await upload(form({ bytes: new Uint8Array(0) }))
      expect(response.status).toBe(415)
      expect((await json(response)).code).toBe('not_pdf')
    })
  })

  describe('the %PDF- signature may be anywhere in the first 1,024 bytes, as PDF readers accept it', () => {
    const bytes = (text: string) => new TextEncoder().encode(text)
    const after = (prefix: Uint8Array) => new Uint8Array(Buffer.concat([prefix, pdf]))
    const accepted: [string, Uint8Array][] = [
      ['a UTF-8 byte-order mark', new Uint8Array([0xef, 0xbb, 0xbf])],
      ['a CRLF', bytes('\r\n')],
      ['junk a mail gateway put before it', bytes('X-Scanned-By: gateway 4.2\r\nContent-Type: application/pdf\r\n\r\n')],
      ['1,019 bytes, so that the signature ends on byte 1,024', bytes('j'.repeat(1019))],
    ]
    for (const [name, prefix] of accepted) {
      test(`after ${name}: accepted, and stored exactly as uploaded`, async () => {
        const sent = after(prefix)
        const response = await upload(form({ bytes: sent }))
        expect(response.status).toBe(201)
        const { data } = await json(response)
        expect(data.fileSize).toBe(sent.length)
        expect(data.sha256).toBe(new Bun.CryptoHasher('sha256').update(sent).digest('hex'))
        const content = await server.call('GET', `/api/files/${data.id}/content`, { token: alice.token })
        expect(new Uint8Array(await content.arrayBuffer())).toEqual(sent)
      })
    }
    test('a file shorter than 1,024 bytes with the signature after some junk is accepted', async () => {
      const short = bytes('\uFEFF\r\n%PDF-1.4\n%%EOF\n')
      expect(short.length).toBeLessThan(1024)
      expect((await upload(form({ bytes: short }))).status).toBe(201)
    })
    test('a signature that ends after byte 1,024 is refused like a missing one', async () => {
      const response = await upload(form({ bytes: after(bytes('j'.repeat(1020))) }))
      expect(response.status).toBe(415)
      expect(await json(response)).toEqual({
        success: false,
        code: 'not_pdf',
        error: 'Uploaded file is not a PDF: %PDF- must appear in its first 1,024 bytes (got "jjjjjjjjjjjjjjjj…")',
      })
      expect(tempFiles()).toEqual([])
    })
    test('a short file without the signature names what it got', async () => {
      const response = await upload(form({ bytes: bytes('%PDX-1.4') }))
      expect(response.status).toBe(415)
      expect((await json(response)).error).toBe('Uploaded file is not a PDF: %PDF- must appear in its first 1,024 bytes (got "%PDX-1.4")')
    })
    test('a non-PDF is refused after its first KiB: the rest of the body is never read', async () => {
      const head = bytes('--b\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n')
      const total = 64 * 1024 * 1024
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = sent === 0 ? head : new Uint8Array(16 * 1024).fill(0x6a)
          sent += chunk.length
          if (sent >= total) controller.close()
          else controller.enqueue(chunk)
        },
      })
      // In process: how much of the body the server read is seen only there (through a network the client sends on).
      const response = await inProcessUpload(body, { 'content-type': 'multipart/form-data; boundary=b' })
      expect(response.status).toBe(415)
      expect(sent).toBeLessThan(1024 * 1024)
      expect(tempFiles()).toEqual([])
    })
  })

  describe('size cap', () => {
    test('exactly 100 MiB is accepted, one byte more is refused with 413', async () => {
      const exact = await upload(form({ bytes: new Blob([pdfOfSize(HARD_MAX_FILE_SIZE)]) }))
      expect(exact.status).toBe(201)
      expect((await json(exact)).data.fileSize).toBe(HARD_MAX_FILE_SIZE)
      const over = await upload(form({ bytes: new Blob([pdfOfSize(HARD_MAX_FILE_SIZE + 1)]) }))
      expect(over.status).toBe(413)
      expect(await json(over)).toEqual({ success: false, error: 'File exceeds the 100 MB limit', code: 'file_too_large' })
      expect(tempFiles()).toEqual([])
    })

    test('a declared Content-Length that cannot fit is refused before the body is read', async () => {
      let pulls = 0
      const body = new ReadableStream({
        pull(controller) {
          pulls++
          controller.enqueue(new Uint8Array(64 * 1024))
        },
      })
      // In process: how much of the body the server read is seen only there (through a network the client sends on).
      const response = await inProcessUpload(body, {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(HARD_MAX_FILE_SIZE * 2),
      })
      expect(response.status).toBe(413)
      expect((await json(response)).code).toBe('file_too_large')
      expect(pulls).toBeLessThanOrEqual(1) // a stream may prefetch one chunk; nothing was consumed
    })
  })

  describe('parts', () => {
    test('no file part → 400', async () => {
      const response = await upload(form(undefined, { title: 'x' }))
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain('no file part')
    })
    test('two file parts → 400', async () => {
      const { body, contentType } = rawMultipart([
        { name: 'file', filename: 'a.pdf', type: 'application/pdf', body: pdf },
        { name: 'file', filename: 'b.pdf', type: 'application/pdf', body: pdf },
      ])
      const response = await upload(body, { 'content-type': contentType })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain('Exactly one file part')
      expect(tempFiles()).toEqual([])
    })
    test('a "file" field without a filename → 400 that says how to send it', async () => {
      const { body, contentType } = rawMultipart([{ name: 'file', body: '%PDF-1.7 inline' }])
      const response = await upload(body, { 'content-type': contentType })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain('file=@')
    })
    test('a file in another part → 400', async () => {
      const { body, contentType } = rawMultipart([{ name: 'document', filename: 'a.pdf', type: 'application/pdf', body: pdf }])
      const response = await upload(body, { 'content-type': contentType })
      expect(response.status).toBe(400)
    })
    test('a field sent twice → 400', async () => {
      const { body, contentType } = rawMultipart([
        { name: 'title', body: 'a' },
        { name: 'title', body: 'b' },
        { name: 'file', filename: 'a.pdf', type: 'application/pdf', body: pdf },
      ])
      const response = await upload(body, { 'content-type': contentType })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain('more than once')
    })
    test('unknown fields are ignored', async () => {
      expect((await upload(form({ bytes: pdf }, { colour: 'blue' }))).status).toBe(201)
    })
    test('a body cut off in the middle → 400, and no temp file is left', async () => {
      const { body, contentType } = rawMultipart([{ name: 'file', filename: 'a.pdf', type: 'application/pdf', body: pdf }])
      const response = await upload(body.slice(0, body.length - 40), { 'content-type': contentType })
      expect(response.status).toBe(400)
      expect((await json(response)).code).toBe('invalid_request')
      expect(tempFiles()).toEqual([])
    })
    test('a multipart content type without a boundary → 400', async () => {
      const response = await upload('whatever', { 'content-type': 'multipart/form-data' })
      expect(response.status).toBe(400)
    })
  })

  test('a request that is not multipart → 415', async () => {
    for (const contentType of ['application/json', 'application/pdf', 'text/plain']) {
      const response = await upload(JSON.stringify({ title: 'x' }), { 'content-type': contentType })
      expect(response.status).toBe(415)
      const body = await json(response)
      expect(body.code).toBe('unsupported_media_type')
      expect(body.error).toContain(contentType)
    }
  })

  test('no failed upload leaves a temp file or a blob behind', async () => {
    const blobsBefore = [...(await Array.fromAsync(server.ctx.blobs.keys()))].length
    await upload(form({ bytes: pdf }, { title: 'x'.repeat(161) }))
    await upload(form({ bytes: pdf }, { allowDownload: 'perhaps' }, true))
    await upload(form({ bytes: new TextEncoder().encode('<html>') }))
    expect(tempFiles()).toEqual([])
    expect([...(await Array.fromAsync(server.ctx.blobs.keys()))].length).toBe(blobsBefore)
  })
})
