import type { PDFiumDocument } from '@hyzyla/pdfium'

/** A page's size in PDF points (1/72 inch), as drawn: its crop box, turned by its rotation. */
export type PageSize = { width: number; height: number }

/** Points kept to two decimals (A4 is 595.28 × 841.89): finer than any screen shows. */
const round = (points: number) => Math.round(points * 100) / 100

/**
 * Every page's size in a few bytes, for the `pdf_pages` row: runs of equal sizes as `WxH*count`, joined by commas
 * (`612x792*59,792x612` is 59 letter pages and one turned). A PDF of thousands of pages of one size is one run.
 */
export function encodePageSizes(sizes: readonly PageSize[]): string {
  const runs: { size: string; count: number }[] = []
  for (const { width, height } of sizes) {
    const size = `${round(width)}x${round(height)}`
    const last = runs.at(-1)
    if (last?.size === size) last.count++
    else runs.push({ size, count: 1 })
  }
  return runs.map((run) => (run.count === 1 ? run.size : `${run.size}*${run.count}`)).join(',')
}

const RUN = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(?:\*(\d+))?$/

/** The first page's size from an encoded list; undefined when there is none or it is not one this code wrote. */
export function firstPageSize(encoded: string | null | undefined): PageSize | undefined {
  const match = RUN.exec(encoded?.split(',', 1)[0] ?? '')
  if (!match) return undefined
  const size = { width: Number(match[1]), height: Number(match[2]) }
  return size.width > 0 && size.height > 0 ? size : undefined
}

/** Every page's size from an encoded list, in page order; undefined when the text is not one this code wrote. */
export function decodePageSizes(encoded: string): PageSize[] | undefined {
  const sizes: PageSize[] = []
  for (const run of encoded.split(',')) {
    const match = RUN.exec(run)
    if (!match) return undefined
    const count = match[3] === undefined ? 1 : Number(match[3])
    for (let i = 0; i < count; i++) sizes.push({ width: Number(match[1]), height: Number(match[2]) })
  }
  return sizes
}

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
