import type { PDFiumDocument } from '@hyzyla/pdfium'
import { encodePageSizes, type PageSize } from '../../shared/page-layout'

export { decodePageSizes, encodePageSizes, firstPageSize, type PageSize } from '../../shared/page-layout'

/** Sizes are read for at most this many pages; a page past them is taken to be the size of the last one read. */
export const MAX_SIZED_PAGES = 10_000

/**
 * Every page's size in points, encoded (above), for the first MAX_SIZED_PAGES pages. PDFium's page width and
 * height are those of the crop box turned by the page's rotation, as it draws them; loading a page reads its
 * dictionary, not its content.
 */
export function readPageSizes(document: PDFiumDocument): string {
  const sizes: PageSize[] = []
  for (let index = 0; index < Math.min(document.getPageCount(), MAX_SIZED_PAGES); index++) {
    const { originalWidth, originalHeight } = document.getPage(index).getOriginalSize()
    sizes.push({ width: originalWidth, height: originalHeight })
  }
  return encodePageSizes(sizes)
}
