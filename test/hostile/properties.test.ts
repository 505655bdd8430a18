import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { parseFormBoolean } from '../../src/lib/booleans'
import { checkText } from '../../src/lib/text'
import { form, json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'

// Property: whatever text and boolean fields a multipart upload carries, the answer is 201 with exactly the
// normalised values, or a 400 naming a field; nothing else, and never a 5xx.
const server = await startTestApp({ PDFSHARE_RATE_LIMIT_API: '0' })
const user = await server.user('prop')
const pdf = makePdf()

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 600 }),
  fc.constantFrom('', ' ', 'e\u0301', '\u0000', '\t\n', 'a\r\nb', '😀'.repeat(161), 'x'.repeat(501)),
)
const booleanWord = fc.oneof(fc.constantFrom('true', 'FALSE', ' yes ', 'Off', '1', '0', 'on', 'no'), fc.string({ maxLength: 8 }))

test('multipart fields: stored exactly (after NFC) or refused with a 400 that names the field', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({ title: text, desc: text, filename: text, allowDownload: booleanWord }, { requiredKeys: [] }),
      async (fields) => {
        const sent = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>
        const response = await server.call('POST', '/api/files/upload', { token: user.token, body: form({ bytes: pdf }, sent) })
        // What FormData actually sends: lone surrogates become U+FFFD (UTF-8), and every line break CRLF.
        const wire = (value: string) => value.toWellFormed().replace(/\r\n|\r|\n/g, '\r\n')
        const textOk = (name: 'title' | 'desc' | 'filename', max: number) => {
          const value = sent[name]
          if (value === undefined) return true
          const check = checkText(wire(value), { max, multiline: name === 'desc' })
          if (!check.ok) return false
          return name !== 'filename' || (check.value.trim() !== '' && !/[/\\]/.test(check.value))
        }
        const valid =
          textOk('title', 160) &&
          textOk('desc', 500) &&
          textOk('filename', 255) &&
          (sent.allowDownload === undefined || parseFormBoolean(sent.allowDownload) !== undefined)
        expect(response.status).toBe(valid ? 201 : 400)
        const body = await json(response)
        if (valid) {
          if (sent.title !== undefined) expect(body.data.title).toBe(wire(sent.title).normalize('NFC'))
          if (sent.desc !== undefined) expect(body.data.desc).toBe(wire(sent.desc).normalize('NFC').replace(/\r\n/g, '\n'))
          if (sent.filename !== undefined) expect(body.data.filename).toBe(wire(sent.filename).normalize('NFC'))
          if (sent.allowDownload !== undefined) expect(body.data.allowDownload).toBe(parseFormBoolean(sent.allowDownload)!)
          await server.call('DELETE', `/api/files/${body.data.id}`, { token: user.token })
        } else {
          expect(body.code).toBe('invalid_request')
          expect(body.error).toMatch(/title|desc|filename|allowDownload/)
        }
      },
    ),
    { numRuns: 150 },
  )
})
