import { PDFDocument, PDFName, PDFString, StandardFonts, type PDFPage, type PDFRef } from 'pdf-lib'

/**
 * Writes test/fixtures/links-outline.pdf (run `bun scripts/support/links-pdf.ts`): six pages, page 1 with a line of
 * text, a web link, a `javascript:` URI link, a JavaScript action, a jump to page 5, a mail link, a `file:` and a
 * `data:` link; an outline of three entries, one with a child, and one that goes to a web address (which a drawn
 * page's outline leaves out).
 */
export const LINE = 'Many programs and desktops use the MIME system'
export const WEB_LINK = 'https://example.com/manual'
export const MAIL_LINK = 'mailto:help@example.com'

async function make(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const pages: PDFPage[] = []
  for (let n = 1; n <= 6; n++) {
    const page = pdf.addPage([612, 792])
    page.drawText(n === 1 ? LINE : `This is page ${n}`, { x: 72, y: 700, size: 18, font })
    pages.push(page)
  }
  const one = pages[0]!
  const labels: [string, number][] = [
    ['Manual on the web', 640],
    ['Run a script', 600],
    ['Run a JavaScript action', 560],
    ['Go to page 5', 520],
    ['Write to us', 480],
    ['Open a local file', 440],
    ['Open a data address', 400],
  ]
  for (const [label, y] of labels) one.drawText(label, { x: 72, y, size: 14, font })
  const context = pdf.context
  const link = (y: number, target: Record<string, unknown>) =>
    context.register(context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [72, y - 4, 300, y + 16], Border: [0, 0, 0], ...target }))
  const uri = (address: string) => context.obj({ S: 'URI', URI: PDFString.of(address) })
  const annots = [
    link(640, { A: uri(WEB_LINK) }),
    link(600, { A: uri('javascript:alert(1)') }),
    link(560, { A: context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(2)') }) }),
    link(520, { Dest: [pages[4]!.ref, 'Fit'] }),
    link(480, { A: uri(MAIL_LINK) }),
    link(440, { A: uri('file:///etc/passwd') }),
    link(400, { A: uri('data:text/html,<script>alert(3)</script>') }),
  ]
  one.node.set(PDFName.of('Annots'), context.obj(annots))

  // The outline: Introduction (page 1), Chapter five (page 5) with Section 5.1 (page 5), On the web (a URI).
  const outline = context.nextRef()
  const entry = (title: string, parent: PDFRef, target: Record<string, unknown>) => ({
    ref: context.nextRef(),
    dict: { Title: PDFString.of(title), Parent: parent, ...target } as Record<string, unknown>,
  })
  const intro = entry('Introduction', outline, { Dest: [pages[0]!.ref, 'Fit'] })
  const five = entry('Chapter five', outline, { Dest: [pages[4]!.ref, 'Fit'] })
  const web = entry('On the web', outline, { A: uri(WEB_LINK) })
  const section = entry('Section 5.1', five.ref, { Dest: [pages[4]!.ref, 'Fit'] })
  Object.assign(intro.dict, { Next: five.ref })
  Object.assign(five.dict, { Prev: intro.ref, Next: web.ref, First: section.ref, Last: section.ref, Count: 1 })
  Object.assign(web.dict, { Prev: five.ref })
  for (const { ref, dict } of [intro, five, web, section]) context.assign(ref, context.obj(dict as never))
  context.assign(outline, context.obj({ Type: 'Outlines', First: intro.ref, Last: web.ref, Count: 4 }))
  pdf.catalog.set(PDFName.of('Outlines'), outline)
  return pdf.save({ useObjectStreams: false })
}

if (import.meta.main) await Bun.write(new URL('../../test/fixtures/links-outline.pdf', import.meta.url), await make())
