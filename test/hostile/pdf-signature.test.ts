import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { createSignatureCheck, PDF_SIGNATURE, SIGNATURE_WINDOW } from '../../src/core/uploads/pdf-signature'
import { json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'

// Property: an upload is accepted exactly when `%PDF-` lies wholly within its first 1,024 bytes, however the
// bytes are cut into chunks on their way in (the signature split across chunks included), and it is stored as sent.
const server = await startTestApp({ PDFSHARE_RATE_LIMIT_API: '0' })
const user = await server.user('signature')
const pdf = makePdf()
const encoder = new TextEncoder()

/** Bytes before the PDF: near-misses of the signature, line breaks, a BOM, NULs, and long runs to cross 1,024. */
const prefix = fc
  .array(
    fc.oneof(
      fc.constantFrom('%', 'P', 'D', 'F', '-', '%PDF', '%PD-', 'PDF-', '\r\n', '\n', '\uFEFF', '\0', ' '),
      fc.string({ maxLength: 4 }),
      fc.constantFrom('x'.repeat(200), 'y'.repeat(1000)),
    ),
    { maxLength: 24 },
  )
  .map((parts) => encoder.encode(parts.join('')))
/** A file: the prefix, then (usually) a PDF; sometimes nothing, so the file may have no signature at all. */
const file = fc
  .tuple(prefix, fc.boolean())
  .map(([before, withPdf]) => new Uint8Array(Buffer.concat([before, withPdf ? pdf : new Uint8Array(0)])))
/**
 * Where the bytes are cut: anywhere (fractions of the length), and inside the first `%PDF-` (offsets 1–4 into
 * it), which random cuts alone would hardly ever hit.
 */
const cuts = fc.record({
  anywhere: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
  inSignature: fc.subarray([1, 2, 3, 4]),
})
type Cuts = typeof cuts extends fc.Arbitrary<infer T> ? T : never

function split(bytes: Uint8Array, { anywhere, inSignature }: Cuts): Uint8Array[] {
  const at = Buffer.from(bytes).indexOf(PDF_SIGNATURE, 0, 'latin1')
  const wanted = [...anywhere.map((f) => Math.floor(f * bytes.length)), ...(at >= 0 ? inSignature.map((k) => at + k) : [])]
  const points = [...new Set(wanted)].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b)
  const chunks: Uint8Array[] = []
  let from = 0
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point))
    from = point
  }
  return chunks
}

const acceptable = (bytes: Uint8Array) => {
  const at = Buffer.from(bytes).indexOf(PDF_SIGNATURE, 0, 'latin1')
  return at >= 0 && at + PDF_SIGNATURE.length <= SIGNATURE_WINDOW
}

test('the check alone: found across any chunk split; refused no later than the 1,024th byte', () => {
  fc.assert(
    fc.property(file, cuts, (bytes, where) => {
      const check = createSignatureCheck()
      let pushed = 0
      let refusedAfter: number | undefined
      for (const chunk of split(bytes, where)) {
        try {
          check.push(chunk)
        } catch {
          refusedAfter = pushed + chunk.length
          break
        }
        pushed += chunk.length
      }
      if (refusedAfter === undefined) {
        let finished = true
        try {
          check.finish()
        } catch {
          finished = false
        }
        expect(finished).toBe(acceptable(bytes))
      } else {
        expect(acceptable(bytes)).toBe(false)
        // Refused in the chunk that filled the window (not before: the signature could still have come),
        // so the rest of the stream is never looked at.
        expect(pushed).toBeLessThan(SIGNATURE_WINDOW)
        expect(refusedAfter).toBeGreaterThanOrEqual(SIGNATURE_WINDOW)
      }
    }),
    { numRuns: 2000 },
  )
})

test('through HTTP: 201 with the exact bytes when the signature is in the first 1,024 bytes, else 415 not_pdf', async () => {
  await fc.assert(
    fc.asyncProperty(file, cuts, async (bytes, where) => {
      const head = encoder.encode(
        '--sig\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n',
      )
      const body = new Uint8Array(Buffer.concat([head, bytes, encoder.encode('\r\n--sig--\r\n')]))
      // The whole body is cut, so chunk edges fall in the part headers, the prefix and the signature alike.
      const chunks = split(body, where)
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift()
          if (next) controller.enqueue(next)
          else controller.close()
        },
      })
      const response = await server.call('POST', '/api/files/upload', {
        token: user.token,
        body: stream,
        headers: { 'content-type': 'multipart/form-data; boundary=sig' },
      })
      const answer = await json(response)
      if (acceptable(bytes)) {
        expect(response.status).toBe(201)
        const stored = await server.call('GET', `/api/files/${answer.data.id}/content`, { token: user.token })
        expect(new Uint8Array(await stored.arrayBuffer())).toEqual(bytes)
        await server.call('DELETE', `/api/files/${answer.data.id}`, { token: user.token })
      } else {
        expect(response.status).toBe(415)
        expect(answer.code).toBe('not_pdf')
      }
    }),
    { numRuns: 200 },
  )
})
