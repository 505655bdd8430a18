/**
 * How pages are laid out on the share page, shared by the server (which names page 1's image in the HTML) and the
 * viewer (which lays out the pages the server draws): the widths pages are drawn at, every page's size as the
 * server keeps it, and pdf.js's own layout numbers, which both follow so that nothing moves at the hand-over.
 */

/** The widths a page image is drawn at: the viewer picks the step that fits its column and the screen's pixel ratio. */
export const PAGE_WIDTHS = [480, 800, 1200, 1800, 2400] as const
export type PageWidth = (typeof PAGE_WIDTHS)[number]
export const isPageWidth = (value: number): value is PageWidth => PAGE_WIDTHS.includes(value as PageWidth)

/** CSS pixels per PDF point at 100 % (96 per inch against 72). */
export const CSS_PX_PER_POINT = 96 / 72
/** pdf.js's largest "auto" zoom. */
export const MAX_AUTO_SCALE = 1.25
/** What pdf.js leaves beside a page for the scrollbar: a page's box is at most this much narrower than the window. */
export const PAGE_GUTTER_PX = 40
/** pdf.js's page border (9 px a side), inside the page's box: the drawing is this much narrower (and lower). */
export const PAGE_BORDERS_PX = 18

/** A page's size in PDF points (1/72 inch), as drawn: its crop box, turned by its rotation (what decodePageSizes reads). */
export type PageSize = NonNullable<ReturnType<typeof decodePageSizes>>[number]

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

/**
 * Every page's size from an encoded list, in page order (`''`: a PDF of no pages); undefined when the text is not
 * one this code wrote.
 */
export function decodePageSizes(encoded: string): { width: number; height: number }[] | undefined {
  const sizes: { width: number; height: number }[] = []
  for (const run of encoded ? encoded.split(',') : []) {
    const match = RUN.exec(run)
    if (!match) return undefined
    const size = { width: Number(match[1]), height: Number(match[2]) }
    if (!(size.width > 0 && size.height > 0)) return undefined
    for (let i = 0; i < Number(match[3] ?? 1); i++) sizes.push({ ...size })
  }
  return sizes
}
