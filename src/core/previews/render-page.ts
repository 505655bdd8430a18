import { readPageSizes } from './page-sizes'
import { onWhite, type RenderEngine, withPdfium } from './render-first-page'

export { isPageWidth, PAGE_WIDTHS, type PageWidth } from '../../shared/page-layout'

/** A page is never drawn taller than this many times its width (a strip a mile long would be all memory). */
const MAX_ASPECT = 4

/**
 * Draws one page of a PDF with PDFium, once, at the largest of `widths` pixels wide (its height from the page's
 * proportions), forms and annotations as a reader sees them, on white, and encodes a WebP per width (the smaller
 * ones scaled down from that one drawing: page 1 at several widths costs one draw). With `sizes`, also every
 * page's size (page-sizes.ts). The same capped, fresh PDFium instance as the link card (render-first-page.ts);
 * runs in the renderer process only.
 */
export async function renderPageImages(
  engine: RenderEngine,
  pdfPath: string,
  heapLimit: number,
  pageNumber: number,
  widths: readonly number[],
  options: { sizes?: boolean } = {},
): Promise<{ webps: Buffer[]; pages: number; sizes?: string }> {
  const largest = Math.max(...widths)
  const { bitmap, pages, sizes } = await withPdfium(engine, pdfPath, heapLimit, async (document) => {
    const count = document.getPageCount()
    if (pageNumber < 1 || pageNumber > count) throw new Error(`the document has no page ${pageNumber} (it has ${count})`)
    const page = document.getPage(pageNumber - 1)
    const { originalWidth, originalHeight } = page.getOriginalSize()
    if (!(originalWidth > 0 && originalHeight > 0)) throw new Error(`page ${pageNumber} has no size`)
    const scale = Math.min(largest / originalWidth, (largest * MAX_ASPECT) / originalHeight)
    const drawn = await page.render({ scale, render: 'bitmap', renderFormFields: true }).catch((error: Error) => {
      throw new Error(`PDFium cannot render page ${pageNumber} (${error.message})`)
    })
    return { bitmap: drawn, pages: count, sizes: options.sizes ? readPageSizes(document) : undefined }
  })
  if (bitmap.width < 1 || bitmap.height < 1 || bitmap.data.length < bitmap.width * bitmap.height * 4)
    throw new Error('PDFium returned an empty bitmap')
  const { sharp } = engine
  const flat = await onWhite(sharp, bitmap).raw().toBuffer({ resolveWithObject: true })
  const webps = await Promise.all(
    widths.map((width) => {
      const image = sharp(flat.data, { raw: { width: flat.info.width, height: flat.info.height, channels: flat.info.channels } })
      const scaled = width < largest ? image.resize({ width: Math.max(1, Math.round((flat.info.width * width) / largest)) }) : image
      return scaled.webp({ quality: 82, effort: 4 }).toBuffer()
    }),
  )
  return { webps, pages, sizes }
}
