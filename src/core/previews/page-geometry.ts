/** The parts of PDFium's page API (fpdfview.h) that place user space on a page as it is shown. */
export type GeometryApi = {
  HEAP32: Int32Array
  _FPDF_GetPageWidthF(page: number): number
  _FPDF_GetPageHeightF(page: number): number
  _FPDF_PageToDevice(
    page: number,
    startX: number,
    startY: number,
    sizeX: number,
    sizeY: number,
    rotate: number,
    pageX: number,
    pageY: number,
    deviceX: number,
    deviceY: number,
  ): number
}

/** A box on the page as shown (its rotation applied), in points from the top left. */
export type ShownBox = { left: number; top: number; right: number; bottom: number }

/** PDFium maps to whole device pixels: the page is mapped at this many times its size, so a 1/64 point is kept. */
const SCALE = 64

/**
 * A page's size in points, and where a rectangle of user space (two opposite corners) is on the page as shown, for
 * what is laid over its image (its words, page-text.ts; its links, page-links.ts). `scratch` is 8 bytes of the
 * module's memory that the caller owns.
 */
export function pageGeometry(api: GeometryApi, page: number, scratch: number) {
  const width = api._FPDF_GetPageWidthF(page)
  const height = api._FPDF_GetPageHeightF(page)
  const shown = (x: number, y: number): [number, number] => {
    api._FPDF_PageToDevice(page, 0, 0, Math.round(width * SCALE), Math.round(height * SCALE), 0, x, y, scratch, scratch + 4)
    return [api.HEAP32[scratch >> 2]! / SCALE, api.HEAP32[(scratch + 4) >> 2]! / SCALE]
  }
  const box = (x1: number, y1: number, x2: number, y2: number): ShownBox => {
    const [a, b] = shown(x1, y1)
    const [c, d] = shown(x2, y2)
    return { left: Math.min(a, c), top: Math.min(b, d), right: Math.max(a, c), bottom: Math.max(b, d) }
  }
  return { width, height, box }
}

/** A fraction of the page (or a size in points) to 5 decimals: finer than any screen, and short in JSON. */
export const rounded = (value: number) => Math.round(value * 100_000) / 100_000
