import type { PDFiumPage } from '@hyzyla/pdfium'
import { type GeometryApi, pageGeometry, rounded as round } from './page-geometry'
import { pdfTargetOf, type LinkTarget, type TargetApi } from './pdf-targets'

/**
 * A page's links as the viewer lays them over the page's image: each one's box as fractions of the page (left, top,
 * width, height, from the top left as the page is shown), and where it goes: a web or mail address (`http:`,
 * `https:`, `mailto:` only), or a page of the same document (a number from 1). Links that go anywhere else
 * (`javascript:`, `file:`, other documents, launches) are not read at all: on a drawn page they are no links.
 */
export type PageLink = [left: number, top: number, width: number, height: number, target: LinkTarget]

/** The parts of PDFium's link API (fpdf_doc.h) read here, beside what the targets need. */
type LinkApi = TargetApi &
  GeometryApi & {
    HEAPF32: Float32Array
    _FPDFLink_Enumerate(page: number, startPos: number, linkAnnot: number): number
    _FPDFLink_GetAnnotRect(link: number, rect: number): number
  }

/** A page keeps at most this many links (a hostile page could have millions of annotations). */
const MAX_LINKS = 500

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
  // start position (int), the link (pointer), its rect (4 floats), a point as shown (2 ints)
  const scratch = api.wasmExports.malloc(4 + 4 + 16 + 8)
  try {
    const { width, height, box } = pageGeometry(api, handle, scratch + 24)
    api.HEAP32[scratch >> 2] = 0
    const links: PageLink[] = []
    for (let seen = 0; seen < MAX_LINKS * 4 && links.length < MAX_LINKS; seen++) {
      if (!api._FPDFLink_Enumerate(handle, scratch, scratch + 4)) break
      const link = api.HEAP32[(scratch + 4) >> 2]!
      const target = pdfTargetOf(api, document, pages, { link })
      if (target === null || !api._FPDFLink_GetAnnotRect(link, scratch + 8)) continue
      const at = (scratch + 8) >> 2 // left, top, right, bottom in user space
      const shown = box(api.HEAPF32[at]!, api.HEAPF32[at + 1]!, api.HEAPF32[at + 2]!, api.HEAPF32[at + 3]!)
      const left = Math.max(0, shown.left / width)
      const top = Math.max(0, shown.top / height)
      const right = Math.min(1, shown.right / width)
      const bottom = Math.min(1, shown.bottom / height)
      if (right <= left || bottom <= top) continue // off the page: nothing to click
      links.push([round(left), round(top), round(right - left), round(bottom - top), target])
    }
    return links
  } finally {
    api.wasmExports.free(scratch)
  }
}
