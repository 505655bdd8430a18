import { notPdf } from '../../errors'

export const PDF_SIGNATURE = '%PDF-'
/**
 * Where the signature may be: anywhere in the first 1,024 bytes, as PDF readers accept it (pdf.js, PDFium and
 * Acrobat all look that far), so a byte-order mark, a CRLF or a mail gateway's junk before `%PDF-` is fine.
 */
export const SIGNATURE_WINDOW = 1024

const SIGNATURE_BYTES = Buffer.from(PDF_SIGNATURE, 'latin1')
/** How much of the file's start a refusal quotes. */
const QUOTED_BYTES = 16

/**
 * Looks for the signature in a stream's first bytes as they arrive, in chunks of any size (the signature may
 * be split between them). It keeps at most SIGNATURE_WINDOW bytes and refuses as soon as that many have come
 * without the signature, so the caller can stop reading a non-PDF after its first KiB.
 */
export function createSignatureCheck() {
  let head = Buffer.alloc(0)
  let found = false
  const refuse = () => {
    const start = head.subarray(0, QUOTED_BYTES).toString('latin1')
    const quoted = JSON.stringify(head.length > QUOTED_BYTES ? `${start}…` : start)
    return notPdf(`Uploaded file is not a PDF: ${PDF_SIGNATURE} must appear in its first 1,024 bytes (got ${quoted})`)
  }
  return {
    /** Throws `not_pdf` once the window is full and holds no signature. */
    push(chunk: Uint8Array): void {
      if (found) return
      const room = SIGNATURE_WINDOW - head.length
      head = Buffer.concat([head, chunk.subarray(0, room)])
      if (head.indexOf(SIGNATURE_BYTES) >= 0) {
        found = true
        head = Buffer.alloc(0)
      } else if (head.length === SIGNATURE_WINDOW) {
        throw refuse()
      }
    },
    /** At the end of the stream: throws `not_pdf` unless the signature was seen (an empty file never has it). */
    finish(): void {
      if (found) return
      if (head.length === 0) throw notPdf(`Uploaded file is empty; it must be a PDF, with ${PDF_SIGNATURE} in its first 1,024 bytes`)
      throw refuse()
    },
  }
}
