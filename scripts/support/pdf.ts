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
}

export function makePdf(spec: PdfSpec = {}): Uint8Array<ArrayBuffer> {
  const pageCount = spec.pages ?? 1
  const text = spec.text ?? ((page: number) => `Hello from page ${page}`)
  const objects: string[] = []
  const add = (body: string) => objects.push(body) // object number = index + 1

  add('<< /Type /Catalog /Pages 2 0 R >>')
  add('') // page tree, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')
  const kids: number[] = []
  const binary: Map<number, Uint8Array> = new Map() // object number → stream bytes, for image objects
  const grouped = spec.layout === 'grouped'
  if (grouped) {
    for (let page = 1; page <= pageCount; page++) {
      add('')
      kids.push(objects.length)
    }
  }
  for (let page = 1; page <= pageCount; page++) {
    let xobjects = ''
    let draw = ''
    if (spec.imageBytesPerPage) {
      const width = 512
      const height = Math.max(1, Math.ceil(spec.imageBytesPerPage / width))
      const pixels = new Uint8Array(width * height)
      for (let i = 0; i < pixels.length; i++) pixels[i] = 160 + ((((i * 2654435761) ^ (page * 40503)) >>> 27) & 63)
      add('') // the image dictionary is written with its binary stream below
      binary.set(objects.length, pixels)
      objects[objects.length - 1] =
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>`
      xobjects = ` /XObject << /Im1 ${objects.length} 0 R >>`
      draw = ' q 468 0 0 360 72 300 cm /Im1 Do Q'
    }
    const content = `BT /F1 24 Tf 72 720 Td (${escapePdfString(text(page))}) Tj ET${draw}`
    add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`)
    const contentRef = objects.length
    const pageDict = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >>${xobjects} >> /Contents ${contentRef} 0 R >>`
    if (grouped) objects[kids[page - 1]! - 1] = pageDict
    else {
      add(pageDict)
      kids.push(objects.length)
    }
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((n) => `${n} 0 R`).join(' ')}] /Count ${pageCount} >>`

  const parts: Uint8Array[] = []
  const encoder = new TextEncoder()
  let offset = 0
  const push = (chunk: string | Uint8Array) => {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk
    parts.push(bytes)
    offset += bytes.length
  }
  push('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n')
  const offsets: number[] = []
  objects.forEach((body, index) => {
    offsets.push(offset)
    const stream = binary.get(index + 1)
    if (stream) {
      push(`${index + 1} 0 obj\n${body}\nstream\n`)
      push(stream)
      push('\nendstream\nendobj\n')
    } else {
      push(`${index + 1} 0 obj\n${body}\nendobj\n`)
    }
  })
  if (spec.paddingBytes) {
    // An unreferenced stream object: valid PDF, ignored by readers, and it makes the file as large as asked.
    offsets.push(offset)
    push(`${objects.length + 1} 0 obj\n<< /Length ${spec.paddingBytes} >>\nstream\n`)
    const filler = new Uint8Array(spec.paddingBytes)
    for (let i = 0; i < filler.length; i++) filler[i] = (i * 2654435761) >>> 24
    push(filler)
    push('\nendstream\nendobj\n')
  }
  const xrefAt = offset
  const count = offsets.length + 1
  push(`xref\n0 ${count}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`)
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`)
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

/** The parts one after another, in one new buffer. */
export function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
