/**
 * Where a PDF's link or bookmark goes, as a drawn page may show it: a web or mail address (the URL's text, `http:`,
 * `https:` or `mailto:` only), or a page of the same document (a number from 1 to its page count).
 */
export type LinkTarget = string | number

/** The parts of PDFium's action and destination API (fpdf_doc.h) a target is read with. */
export type TargetApi = {
  HEAPU8: Uint8Array
  wasmExports: { malloc(size: number): number; free(pointer: number): void }
  _FPDFLink_GetDest(document: number, link: number): number
  _FPDFLink_GetAction(link: number): number
  _FPDFBookmark_GetDest(document: number, bookmark: number): number
  _FPDFBookmark_GetAction(bookmark: number): number
  _FPDFAction_GetType(action: number): number
  _FPDFAction_GetDest(document: number, action: number): number
  _FPDFAction_GetURIPath(document: number, action: number, buffer: number, length: number): number
  _FPDFDest_GetDestPageIndex(document: number, dest: number): number
}

/** PDFACTION_GOTO and PDFACTION_URI (fpdf_doc.h); remote and embedded go-tos and launches are never followed. */
const GOTO = 1
const URI = 3
/** Longer addresses are not kept (a browser's own limit is about this). */
const MAX_URI = 2048
const SCHEMES = new Set(['http:', 'https:', 'mailto:'])

/**
 * The target of a link annotation or a bookmark: its destination (`/Dest`), or its action's (`/A`, a go-to or a
 * URI), checked here, where it is read: a page past the end, or an address of any other scheme, is no target (null).
 */
export function pdfTargetOf(
  api: TargetApi,
  document: number,
  pages: number,
  of: { link: number } | { bookmark: number },
): LinkTarget | null {
  const dest = 'link' in of ? api._FPDFLink_GetDest(document, of.link) : api._FPDFBookmark_GetDest(document, of.bookmark)
  if (dest) return pageOf(api, document, dest, pages)
  const action = 'link' in of ? api._FPDFLink_GetAction(of.link) : api._FPDFBookmark_GetAction(of.bookmark)
  if (!action) return null
  const type = api._FPDFAction_GetType(action)
  if (type === GOTO) {
    const goTo = api._FPDFAction_GetDest(document, action)
    return goTo ? pageOf(api, document, goTo, pages) : null
  }
  if (type !== URI) return null
  const length = api._FPDFAction_GetURIPath(document, action, 0, 0)
  if (length <= 1 || length > MAX_URI) return null
  const buffer = api.wasmExports.malloc(length)
  try {
    api._FPDFAction_GetURIPath(document, action, buffer, length)
    return safeAddress(new TextDecoder('latin1').decode(api.HEAPU8.subarray(buffer, buffer + length - 1)))
  } finally {
    api.wasmExports.free(buffer)
  }
}

/** The address as a browser would read it, when it is a web or mail address; anything else (or nothing valid) is null. */
export function safeAddress(text: string): string | null {
  if (!URL.canParse(text.trim())) return null
  const url = new URL(text.trim())
  return SCHEMES.has(url.protocol) ? url.href : null
}

function pageOf(api: TargetApi, document: number, dest: number, pages: number): number | null {
  const index = api._FPDFDest_GetDestPageIndex(document, dest)
  return index >= 0 && index < pages ? index + 1 : null
}
