import { loadedSharp, withPdfium } from './render-first-page'

/** The widths a page image is drawn at: the viewer picks the step that fits its column and the screen's pixel ratio. */
export const PAGE_WIDTHS = [480, 800, 1200, 1800, 2400] as const
export type PageWidth = (typeof PAGE_WIDTHS)[number]
export const isPageWidth = (value: number): value is PageWidth => PAGE_WIDTHS.includes(value as PageWidth)

/** A page is never drawn taller than this many times its width (a strip a mile long would be all memory). */
const MAX_ASPECT = 4

/**
 * Draws one page of a PDF with PDFium, `width` pixels wide (its height from the page's proportions), forms and
 * annotations as a reader sees them, on white, as a WebP. The same capped, fresh PDFium instance as the link
 * card (render-first-page.ts); runs in the renderer process only.
 */
export async function renderPageImage(
  pdfPath: string,
  heapLimit: number,
  pageNumber: number,
  width: number,
): Promise<{ webp: Buffer; pages: number }> {
  const { bitmap, pages } = await withPdfium(pdfPath, heapLimit, async (document) => {
    const count = document.getPageCount()
    if (pageNumber < 1 || pageNumber > count) throw new Error(`the document has no page ${pageNumber} (it has ${count})`)
    const page = document.getPage(pageNumber - 1)
    const { originalWidth, originalHeight } = page.getOriginalSize()
    if (!(originalWidth > 0 && originalHeight > 0)) throw new Error(`page ${pageNumber} has no size`)
    const scale = Math.min(width / originalWidth, (width * MAX_ASPECT) / originalHeight)
    const drawn = await page.render({ scale, render: 'bitmap', renderFormFields: true }).catch((error: Error) => {
      throw new Error(`PDFium cannot render page ${pageNumber} (${error.message})`)
    })
    return { bitmap: drawn, pages: count }
  })
  if (bitmap.width < 1 || bitmap.height < 1 || bitmap.data.length < bitmap.width * bitmap.height * 4)
    throw new Error('PDFium returned an empty bitmap')
  const webp = await loadedSharp().then((sharp) =>
    sharp(Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength), {
      raw: { width: bitmap.width, height: bitmap.height, channels: 4 },
    })
      .recomb([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
      ]) // PDFium writes BGRA; sharp reads RGBA
      .flatten({ background: '#ffffff' })
      .webp({ quality: 82, effort: 4 })
      .toBuffer(),
  )
  return { webp, pages }
}
