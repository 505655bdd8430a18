import type { PDFiumDocument } from '@hyzyla/pdfium'
import { pdfTargetOf, type LinkTarget, type TargetApi } from './pdf-targets'

/**
 * A PDF's outline (its bookmarks) as the viewer shows it beside drawn pages: each entry's title, the page it opens
 * (a number from 1; absent for an entry that only groups others) and its entries. Entries that go anywhere else (a
 * web address, another document, a script) are left out, as are empty groups: it leads only to pages the reader has.
 */
export type OutlineEntry = { title: string; page?: number; items?: OutlineEntry[] }

type BookmarkApi = TargetApi & {
  _FPDFBookmark_GetFirstChild(document: number, bookmark: number): number
  _FPDFBookmark_GetNextSibling(document: number, bookmark: number): number
  _FPDFBookmark_GetTitle(bookmark: number, buffer: number, length: number): number
}

/** Bounds against a hostile outline: entries read, nesting, and a title's length (a loop is cut where it repeats). */
const MAX_ENTRIES = 2000
const MAX_DEPTH = 12
const MAX_TITLE = 300

/** Reads the outline of an open document with PDFium's bookmark API, in the renderer process (under its caps). */
export function readOutline(document: PDFiumDocument): OutlineEntry[] {
  const pdfium = Reflect.get(document, 'module') as Partial<BookmarkApi> | undefined
  const handle = Reflect.get(document, 'documentIdx') as unknown
  if (!pdfium?._FPDFBookmark_GetFirstChild || typeof handle !== 'number')
    throw new Error('this PDFium build does not expose its bookmark API')
  const api = pdfium as BookmarkApi
  const pages = document.getPageCount()
  const seen = new Set<number>()
  const titleOf = (bookmark: number) => {
    const bytes = api._FPDFBookmark_GetTitle(bookmark, 0, 0)
    if (bytes <= 2) return ''
    const buffer = api.wasmExports.malloc(bytes)
    try {
      api._FPDFBookmark_GetTitle(bookmark, buffer, bytes)
      const text = new TextDecoder('utf-16le').decode(api.HEAPU8.subarray(buffer, buffer + bytes - 2))
      return text.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE)
    } finally {
      api.wasmExports.free(buffer)
    }
  }
  const childrenOf = (parent: number, depth: number): OutlineEntry[] => {
    const entries: OutlineEntry[] = []
    for (
      let bookmark = api._FPDFBookmark_GetFirstChild(handle, parent);
      bookmark;
      bookmark = api._FPDFBookmark_GetNextSibling(handle, bookmark)
    ) {
      if (seen.has(bookmark) || seen.size >= MAX_ENTRIES) break
      seen.add(bookmark)
      const target: LinkTarget | null = pdfTargetOf(api, handle, pages, { bookmark })
      const items = depth < MAX_DEPTH ? childrenOf(bookmark, depth + 1) : []
      const title = titleOf(bookmark)
      if (!title || (typeof target !== 'number' && items.length === 0)) continue
      entries.push({ title, ...(typeof target === 'number' && { page: target }), ...(items.length > 0 && { items }) })
    }
    return entries
  }
  return childrenOf(0, 1)
}
