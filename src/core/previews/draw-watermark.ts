import fontkit from '@pdf-lib/fontkit'
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'
import { SANS_FONT_FILE } from './pdfium-fonts'
import { WATERMARK_STYLE } from './watermark-style'

/**
 * Draws `text` across `page` (WATERMARK_STYLE): rows of it at the angle, each row shifted by half a step from the
 * last, spaced so that about two rows cross a portrait page's width, covering the page's visible box whatever its
 * proportions.
 */
export function drawWatermark(
  page: PDFPage,
  font: PDFFont,
  text: string,
  ink: { rgb: readonly [number, number, number]; opacity: number },
): void {
  const box = page.getCropBox()
  const size = Math.max(6, box.width / WATERMARK_STYLE.perWidth)
  const textWidth = font.widthOfTextAtSize(text, size)
  const radians = (WATERMARK_STYLE.angle * Math.PI) / 180
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)]
  const reach = Math.hypot(box.width, box.height) / 2
  const along = textWidth + size * 4
  const across = size * 6
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  for (let row = 0, v = -reach; v <= reach; v += across, row++) {
    // Along each row (u), from before the page's corner to past the other: text starts at (u, v) in the turned frame.
    for (let u = -reach - textWidth - (row % 2) * (along / 2); u <= reach; u += along) {
      page.drawText(text, {
        x: centre.x + u * cos - v * sin,
        y: centre.y + u * sin + v * cos,
        size,
        font,
        color: rgb(...ink.rgb),
        opacity: ink.opacity,
        rotate: degrees(WATERMARK_STYLE.angle),
      })
    }
  }
}

/**
 * The PDF at `bytes` with `text` drawn across every page as real text (so it is found by a search and read by a
 * screen reader): in Helvetica where it has every character, else in Noto Sans, embedded whole (pdf-lib's subsets
 * of it lose glyphs). Encrypted PDFs and
 * PDFs pdf-lib cannot read throw; runs in the renderer process, under its time and memory caps.
 */
export async function stampPdf(bytes: Uint8Array, text: string): Promise<{ pdf: Uint8Array; pages: number }> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false })
  const font = await embedFontFor(document, text)
  const ink = { rgb: WATERMARK_STYLE.grey.map((value) => value / 255) as [number, number, number], opacity: WATERMARK_STYLE.opacity }
  for (const page of document.getPages()) drawWatermark(page, font, text, ink)
  return { pdf: await document.save({ useObjectStreams: true }), pages: document.getPageCount() }
}

/**
 * One `width` × `height` page with `text` drawn on it as `stampPdf` draws it on a page that size, in solid black: what
 * PDFium renders into the mask that page images are watermarked with (watermarks.ts), grey and strength added there.
 */
export async function watermarkMaskPdf(text: string, width: number, height: number): Promise<Uint8Array> {
  const document = await PDFDocument.create()
  const font = await embedFontFor(document, text)
  drawWatermark(document.addPage([width, height]), font, text, { rgb: [0, 0, 0], opacity: 1 })
  return document.save()
}

async function embedFontFor(document: PDFDocument, text: string): Promise<PDFFont> {
  // Helvetica is in every PDF reader (PDFium draws it from its own fonts): nothing to embed, for the Latin-1 text
  // that addresses, dates and ids are. Anything else needs a font of ours in the file.
  const helvetica = document.embedStandardFont(StandardFonts.Helvetica)
  if (encodes(helvetica, text)) return helvetica
  // Noto Sans has Latin, Greek and Cyrillic; Chinese, Japanese and Korean would need the 8 MiB CJK font embedded
  // whole in every stamped copy (pdf-lib's subsets of these fonts lose glyphs), so those characters show as boxes.
  document.registerFontkit(fontkit)
  return document.embedFont(await Bun.file(SANS_FONT_FILE).bytes(), { subset: false })
}

/** Whether a standard font's encoding (WinAnsi) has every character of `text`: pdf-lib throws where it has not. */
function encodes(font: PDFFont, text: string): boolean {
  try {
    font.encodeText(text)
    return true
  } catch {
    return false
  }
}
