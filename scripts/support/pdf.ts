import { deflateSync } from 'node:zlib'

/**
 * Real, valid PDFs for tests, written from scratch: a catalog, a page tree, pages with Helvetica text, and
 * a correct cross-reference table. `padding` adds an incompressible stream so a file reaches a given size.
 */
export type PdfSpec = {
  pages?: number
  text?: (page: number) => string
  /** An unreferenced stream at the end: makes the file large without making any page heavier. */
  paddingBytes?: number
  /** A grayscale image of about this many bytes drawn on every page, like a scanned document. */
  imageBytesPerPage?: number
  /**
   * Where the page dictionaries go: 'interleaved' writes each page right after its content and image (the
   * worst case for range loading: finding page N touches every page's part of the file); 'grouped' writes
   * them all before the contents, as producers using object streams effectively do.
   */
  layout?: 'interleaved' | 'grouped'
  /** Each page's size in points, [width, height] (default US Letter, 612 × 792). */
  pageSize?: (page: number) => [number, number]
}

export function makePdf(spec: PdfSpec = {}): Uint8Array<ArrayBuffer> {
  const pageCount = spec.pages ?? 1
  const text = spec.text ?? ((page: number) => `Hello from page ${page}`)
  const objects: PdfObject[] = []
  const add = (object: PdfObject) => objects.push(object) // returns the object's number (index + 1)

  add('<< /Type /Catalog /Pages 2 0 R >>')
  add('') // page tree, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')
  const kids: number[] = []
  const grouped = spec.layout === 'grouped'
  if (grouped) for (let page = 1; page <= pageCount; page++) kids.push(add(''))
  for (let page = 1; page <= pageCount; page++) {
    let xobjects = ''
    let draw = ''
    if (spec.imageBytesPerPage) {
      const width = 512
      const height = Math.max(1, Math.ceil(spec.imageBytesPerPage / width))
      const pixels = new Uint8Array(width * height)
      for (let i = 0; i < pixels.length; i++) pixels[i] = 160 + ((((i * 2654435761) ^ (page * 40503)) >>> 27) & 63)
      const image = add({
        dict: `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8`,
        stream: pixels,
      })
      xobjects = ` /XObject << /Im1 ${image} 0 R >>`
      draw = ' q 468 0 0 360 72 300 cm /Im1 Do Q'
    }
    const content = add({ dict: '', stream: `BT /F1 24 Tf 72 720 Td (${escapePdfString(text(page))}) Tj ET${draw}` })
    const [pageWidth, pageHeight] = spec.pageSize?.(page) ?? [612, 792]
    const pageDict = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] /Resources << /Font << /F1 3 0 R >>${xobjects} >> /Contents ${content} 0 R >>`
    if (grouped) objects[kids[page - 1]! - 1] = pageDict
    else kids.push(add(pageDict))
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((n) => `${n} 0 R`).join(' ')}] /Count ${pageCount} >>`
  if (spec.paddingBytes) {
    // An unreferenced stream object: valid PDF, ignored by readers, and it makes the file as large as asked.
    const filler = new Uint8Array(spec.paddingBytes)
    for (let i = 0; i < filler.length; i++) filler[i] = (i * 2654435761) >>> 24
    add({ dict: '', stream: filler })
  }
  return assemblePdf(objects, { header: '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n' })
}

/**
 * A PDF object: a dictionary (or any other object) as text, or a stream, written with its exact /Length (and
 * /Filter /FlateDecode, compressed, when `deflate` is set).
 */
export type PdfObject = string | { dict: string; stream: Uint8Array | string; deflate?: boolean }

/**
 * A complete PDF file from its objects, numbered from 1 in the order given (object 1 is the catalog), with a
 * correct cross-reference table. Text is written one byte per character (latin1), as PDF reads it, so a
 * string may carry binary bytes (an encrypted string, the header's high-bit marker). `trailer` adds entries
 * to the trailer dictionary (e.g. ` /Encrypt 6 0 R`).
 */
export function assemblePdf(objects: PdfObject[], options: { header?: string; trailer?: string } = {}): Uint8Array<ArrayBuffer> {
  const latin1 = (text: string) => Buffer.from(text, 'latin1')
  const parts: Uint8Array[] = []
  let offset = 0
  const push = (chunk: string | Uint8Array) => {
    const bytes = typeof chunk === 'string' ? latin1(chunk) : chunk
    parts.push(bytes)
    offset += bytes.length
  }
  push(options.header ?? '%PDF-1.7\n')
  const offsets: number[] = []
  objects.forEach((object, index) => {
    offsets.push(offset)
    if (typeof object === 'string') {
      push(`${index + 1} 0 obj\n${object}\nendobj\n`)
      return
    }
    const raw = typeof object.stream === 'string' ? latin1(object.stream) : object.stream
    const data = object.deflate ? deflateSync(raw, { level: 9 }) : raw
    const filter = object.deflate ? ' /Filter /FlateDecode' : ''
    push(`${index + 1} 0 obj\n<< ${object.dict} /Length ${data.length}${filter} >>\nstream\n`)
    push(data)
    push('\nendstream\nendobj\n')
  })
  const xrefAt = offset
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`)
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${options.trailer ?? ''} >>\nstartxref\n${xrefAt}\n%%EOF\n`)
  return concat(parts)
}

/** Bytes that start with the PDF signature and are exactly `size` long (for size-limit tests). */
export function pdfOfSize(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'.slice(0, size)))
  return bytes
}

function escapePdfString(value: string): string {
  return value.replace(/[\\()]/g, (c) => `\\${c}`)
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
