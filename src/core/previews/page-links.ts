import type { PDFiumPage } from '@hyzyla/pdfium'
import { pdfTargetOf, type LinkTarget, type TargetApi } from './pdf-targets'

/**
 * A page's links as the viewer lays them over the page's image: each one's box as fractions of the page (left, top,
 * width, height, from the top left as the page is shown), and where it goes: a web or mail address (`http:`,
 * `https:`, `mailto:` only), or a page of the same document (a number from 1). Links that go anywhere else
 * (`javascript:`, `file:`, other documents, launches) are not read at all: on a drawn page they are no links.
 */
export type PageLink = [left: number, top: number, width: number, height: number, target: LinkTarget]

/** The parts of PDFium's link API (fpdf_doc.h) read here, beside what the targets need. */
type LinkApi = TargetApi & {
  HEAPF32: Float32Array
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
  _FPDFLink_Enumerate(page: number, startPos: number, linkAnnot: number): number
  _FPDFLink_GetAnnotRect(link: number, rect: number): number
}

/** A page keeps at most this many links (a hostile page could have millions of annotations). */
const MAX_LINKS = 500
const round = (value: number) => Math.round(value * 100_000) / 100_000

/**
 * Reads the links of a loaded page with PDFium's link API, in the renderer process (under its caps). Like the text
 * (page-text.ts), PDFium's handles are private fields of the library's objects: read where they are, or refused.
 */
export function readPageLinks(page: PDFiumPage, pages: number): PageLink[] {
  const pdfium = Reflect.get(page, 'module') as Partial<LinkApi> | undefined
  const handle = Reflect.get(page, 'pageIdx') as unknown
  const document = Reflect.get(page, 'documentIdx') as unknown
  if (!pdfium?._FPDFLink_Enumerate || !pdfium.HEAPF32 || typeof handle !== 'number' || typeof document !== 'number')
    throw new Error('this PDFium build does not expose its link API')
  const api = pdfium as LinkApi
  const width = api._FPDF_GetPageWidthF(handle)
  const height = api._FPDF_GetPageHeightF(handle)
  // start position (int), the link (pointer), its rect (4 floats), a point as shown (2 ints)
  const scratch = api.wasmExports.malloc(4 + 4 + 16 + 8)
  try {
    const shown = (x: number, y: number): [number, number] => {
      api._FPDF_PageToDevice(handle, 0, 0, Math.round(width * 64), Math.round(height * 64), 0, x, y, scratch + 24, scratch + 28)
      return [api.HEAP32[(scratch + 24) >> 2]! / 64, api.HEAP32[(scratch + 28) >> 2]! / 64]
    }
    api.HEAP32[scratch >> 2] = 0
    const links: PageLink[] = []
    for (let seen = 0; seen < MAX_LINKS * 4 && links.length < MAX_LINKS; seen++) {
      if (!api._FPDFLink_Enumerate(handle, scratch, scratch + 4)) break
      const link = api.HEAP32[(scratch + 4) >> 2]!
      const target = pdfTargetOf(api, document, pages, { link })
      if (target === null || !api._FPDFLink_GetAnnotRect(link, scratch + 8)) continue
      const at = (scratch + 8) >> 2 // left, top, right, bottom in user space
      const [x1, y1] = shown(api.HEAPF32[at]!, api.HEAPF32[at + 1]!)
      const [x2, y2] = shown(api.HEAPF32[at + 2]!, api.HEAPF32[at + 3]!)
      const left = Math.max(0, Math.min(x1, x2) / width)
      const top = Math.max(0, Math.min(y1, y2) / height)
      const right = Math.min(1, Math.max(x1, x2) / width)
      const bottom = Math.min(1, Math.max(y1, y2) / height)
      if (right <= left || bottom <= top) continue // off the page: nothing to click
      links.push([round(left), round(top), round(right - left), round(bottom - top), target])
    }
    return links
  } finally {
    api.wasmExports.free(scratch)
  }
}
