import { assemblePdf } from './pdf'

/**
 * PDFs built to hurt a renderer, each small on disk. They are valid enough that PDFium opens them; what
 * they draw is the attack.
 */

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>'
const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'
const page = (resources: string, contents = 4) =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${resources} >> /Contents ${contents} 0 R >>`

/** A form XObject whose content draws itself: every level of recursion renders the page again. */
export function selfDrawingForm(): Uint8Array<ArrayBuffer> {
  return assemblePdf([
    CATALOG,
    PAGES,
    page('/XObject << /F 5 0 R >>'),
    { dict: '', stream: '/F Do' },
    {
      dict: '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /F 5 0 R >> >>',
      stream: '0 0 m 612 792 l S /F Do /F Do',
    },
  ])
}

/** Form A draws form B, B fills with a tiling pattern whose cell draws A: a cycle through a pattern. */
export function formPatternCycle(): Uint8Array<ArrayBuffer> {
  return assemblePdf([
    CATALOG,
    PAGES,
    page('/XObject << /A 5 0 R >>'),
    { dict: '', stream: '/A Do' },
    { dict: '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /B 6 0 R >> >>', stream: '/B Do /B Do' },
    {
      dict: '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Pattern << /P 7 0 R >> >>',
      stream: '/Pattern cs /P scn 0 0 612 792 re f 0 0 306 396 re f',
    },
    {
      dict: '/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 2 2] /XStep 2 /YStep 2 /Resources << /XObject << /A 5 0 R >> >>',
      stream: '0.01 0 0 0.01 0 0 cm /A Do',
    },
  ])
}

/**
 * A page whose content stream inflates from about `compressedMiB`×1000 KiB of operators: hundreds of
 * megabytes of tiny filled rectangles, each one a separate path the renderer must fill.
 */
export function contentStreamBomb(inflatedMiB = 256): Uint8Array<ArrayBuffer> {
  const unit = '1 1 610 790 re f\n'
  const chunk = unit.repeat(Math.ceil((1 << 20) / unit.length))
  const content = new Uint8Array(chunk.length * inflatedMiB)
  const encoded = new TextEncoder().encode(chunk)
  for (let i = 0; i < inflatedMiB; i++) content.set(encoded, i * encoded.length)
  return assemblePdf([CATALOG, PAGES, page(''), { dict: '', stream: content, deflate: true }])
}

/**
 * A correct page that is slow to draw: it fills the whole page `fills` times (about 0.3 ms a fill for a
 * preview here), like a real PDF that renders correctly in several seconds.
 */
export function slowPage(fills: number): Uint8Array<ArrayBuffer> {
  const content = new TextEncoder().encode(
    `0.9 g\n${'1 1 610 790 re f\n'.repeat(fills)}0 g BT /F1 24 Tf 72 700 Td (Slow but correct) Tj ET\n`,
  )
  return assemblePdf([CATALOG, PAGES, page(''), { dict: '', stream: content, deflate: true }])
}

/**
 * A page that draws one `side`×`side` RGB image over the whole page (432 MB of pixels at the default
 * side). The stream holds only a compressed megabyte of it; PDFium still has to set up, decode and scale
 * an image of the declared size.
 */
export function hugeImagePage(side = 12_000): Uint8Array<ArrayBuffer> {
  return assemblePdf([
    CATALOG,
    PAGES,
    page('/XObject << /Im 5 0 R >>'),
    { dict: '', stream: 'q 612 0 0 792 0 0 cm /Im Do Q' },
    {
      dict: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8`,
      stream: new Uint8Array(1 << 20).fill(90),
      deflate: true,
    },
  ])
}

/** A valid PDF whose page tree is empty (Count 0): readers open it and have nothing to show. */
export function zeroPagePdf(): Uint8Array<ArrayBuffer> {
  return assemblePdf([CATALOG, '<< /Type /Pages /Kids [] /Count 0 >>'])
}

/** Page 1 holds nothing but a text field whose value has no appearance stream: only a form renderer draws it. */
export function formFieldOnly(value = 'Signed: Alice Example'): Uint8Array<ArrayBuffer> {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R] /NeedAppearances true /DR << /Font << /Helv 6 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>',
    PAGES,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R /Annots [5 0 R] >>',
    { dict: '', stream: '' },
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (signer) /V (${value}) /Rect [72 690 540 740] /F 4 /DA (/Helv 28 Tf 0 g) /P 3 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ])
}

/** A cover-like page: a large title at `fromTop` points below the top edge, nothing above it. */
export function titleLowOnPage(fromTop = 420, title = 'Annual Report 2026'): Uint8Array<ArrayBuffer> {
  return assemblePdf([
    CATALOG,
    PAGES,
    page('/Font << /F1 5 0 R >>'),
    {
      dict: '',
      stream: `BT /F1 40 Tf 72 ${792 - fromTop} Td (${title}) Tj ET BT /F1 14 Tf 72 ${792 - fromTop - 40} Td (Prepared for the board) Tj ET`,
    },
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ])
}
