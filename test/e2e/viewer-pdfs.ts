import { createHash } from 'node:crypto'
import { assemblePdf } from '../../scripts/support/pdf'

/**
 * PDFs that put the viewer in each of its states, written from scratch for the browser tests. Each was checked
 * against pdf.js: what it does with them is said beside each one.
 */

const encoder = new TextEncoder()
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1')
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'

/** A PDF of the given objects (object n is `objects[n - 1]`) with a correct cross-reference table. */
export function pdfFromObjects(objects: string[], trailerExtra = ''): Uint8Array<ArrayBuffer> {
  return assemblePdf(objects, { header: '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', trailer: trailerExtra })
}

const text = (line: string) => {
  const ops = `BT /F1 24 Tf 72 720 Td (${line}) Tj ET`
  return `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`
}
const page = (contents: number, extra = '') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R${extra} >>`

/** A page tree with no pages: pdf.js opens it with numPages 0 (its viewer then never leaves "Loading…"). */
export const zeroPages = () => pdfFromObjects(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>'])

/** Not a PDF pdf.js can parse: InvalidPDFException. */
export const notParseable = () => encoder.encode('%PDF-1.7\nnot really a pdf\n%%EOF\n') as Uint8Array<ArrayBuffer>

/**
 * Encrypted with a security handler that does not exist: pdf.js's worker fails with an error that reaches the
 * page as UnknownErrorException (the viewer used to call that a connection problem).
 */
export const unknownSecurityHandler = () =>
  pdfFromObjects(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      FONT,
      page(5),
      text('Locked away'),
      '<< /Filter /NoSuchHandler /V 9 >>',
    ],
    ' /Encrypt 6 0 R /ID [<0011> <0011>]',
  )

/**
 * Three pages whose first is a page-tree node that contains itself: pdf.js's getPage(1) fails ("Pages tree
 * contains circular reference"), so its viewer gives up on the whole document, though pdf.js counts three
 * pages and reads pages 2 and 3 fine.
 */
export const brokenFirstPage = () =>
  pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R 5 0 R 6 0 R] /Count 3 >>',
    FONT,
    '<< /Type /Pages /Parent 2 0 R /Kids [4 0 R] /Count 1 >>',
    page(7),
    page(8),
    text('Second page still readable'),
    text('Third page still readable'),
  ])

/**
 * One page that is not a page at all (its object is a string): pdf.js opens the document (one page) but
 * cannot read that page, so there is nothing to show.
 */
export const onlyPageBroken = () =>
  pdfFromObjects(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, '(this was meant to be a page)'])

/**
 * Sticky notes without appearance streams, so pdf.js draws its own icons: the default (Note), a standard name
 * (Comment), a name Acrobat uses but pdf.js ships no icon for (Circle), and a file attachment (Paperclip).
 */
export const stickyNotes = () =>
  pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    FONT,
    page(5, ' /Annots [6 0 R 7 0 R 8 0 R 9 0 R]'),
    text('A page with sticky notes'),
    '<< /Type /Annot /Subtype /Text /Rect [100 600 120 620] /Contents (The default icon) >>',
    '<< /Type /Annot /Subtype /Text /Rect [160 600 180 620] /Contents (A comment) /Name /Comment >>',
    '<< /Type /Annot /Subtype /Text /Rect [220 600 240 620] /Contents (An Acrobat icon) /Name /Circle >>',
    '<< /Type /Annot /Subtype /FileAttachment /Rect [280 600 300 620] /Name /Paperclip /FS << /Type /Filespec /F (notes.txt) /EF << /F 10 0 R >> >> >>',
    '<< /Type /EmbeddedFile /Length 5 >>\nstream\nhello\nendstream',
  ])

/**
 * Encrypted with the standard security handler, revision 2 (RC4, 40-bit key; PDF 1.7 §7.6.3, algorithms 2–4)
 * under a user password: pdf.js asks for it (PasswordException) and opens the document with the right one.
 */
export function passwordProtected(password: string, line: string): Uint8Array<ArrayBuffer> {
  const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex')
  const padded = (value: string) => Buffer.concat([Buffer.from(value, 'latin1'), PAD]).subarray(0, 32)
  const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest()
  const id = Buffer.from('5d41402abc4b2a76b9719d911017c592', 'hex')
  const permissions = -4
  const p = Buffer.alloc(4)
  p.writeInt32LE(permissions)
  const owner = rc4(md5(padded('owner secret')).subarray(0, 5), padded(password))
  const key = md5(padded(password), owner, p, id).subarray(0, 5)
  const user = rc4(key, PAD)
  // Streams are encrypted with a key per object: the file key, the object number (3 bytes), generation (2 bytes).
  const objectKey = (num: number) => md5(key, Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0])).subarray(0, 10)
  const ops = `BT /F1 24 Tf 72 720 Td (${line}) Tj ET`
  const sealed = latin1(rc4(objectKey(5), Buffer.from(ops, 'latin1')))
  return pdfFromObjects(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      FONT,
      page(5),
      `<< /Length ${sealed.length} >>\nstream\n${sealed}\nendstream`,
      `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
    ],
    ` /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`,
  )
}

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i)
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff
    ;[s[i], s[j]] = [s[j]!, s[i]!]
  }
  const out = Buffer.alloc(data.length)
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff
    j = (j + s[i]!) & 0xff
    ;[s[i], s[j]] = [s[j]!, s[i]!]
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!
  }
  return out
}
