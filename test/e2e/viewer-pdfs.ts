/**
 * PDFs that put the viewer in each of its states, written from scratch for the browser tests. Each was checked
 * against pdf.js: what it does with them is said beside each one.
 */

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'

/** A PDF of the given objects (object n is `objects[n - 1]`) with a correct cross-reference table. */
export function pdfFromObjects(objects: string[], trailerExtra = ''): Uint8Array<ArrayBuffer> {
  let out = '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n'
  const offsets = objects.map((body, index) => {
    const offset = out.length
    out += `${index + 1} 0 obj\n${body}\nendobj\n`
    return offset
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(out, 'latin1'))
}

const text = (line: string) => {
  const ops = `BT /F1 24 Tf 72 720 Td (${line}) Tj ET`
  return `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`
}
const page = (contents: number, extra = '') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R${extra} >>`

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
