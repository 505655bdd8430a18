import type { PDFiumDocument, PDFiumPage } from '@hyzyla/pdfium'
import { type GeometryApi, pageGeometry, rounded as round } from './page-geometry'
import type { PageLink } from './page-links'

/**
 * A page's text as the viewer lays it over the page's image (for find, selection and screen readers): the page's
 * size in points, and its words in reading order, each with its box as fractions of the page (left, top, width,
 * height, measured from the top left as the page is shown, its rotation applied) and whether a new line starts
 * after it. Fractions keep the layer independent of the width the image was drawn at. The text job sends the page's
 * links with it (`links`, page-links.ts): one request a page for everything laid over its image.
 */
export type PageText = {
  width: number
  height: number
  words: [left: number, top: number, width: number, height: number, text: string, lineEnd: 0 | 1][]
  links?: PageLink[]
}

/** The parts of PDFium's text API (fpdf_text.h) a page's text is read with; the library has no words of its own. */
type TextApi = GeometryApi & {
  HEAPF64: Float64Array
  wasmExports: { malloc(size: number): number; free(pointer: number): void }
  _FPDFText_LoadPage(page: number): number
  _FPDFText_ClosePage(textPage: number): void
  _FPDFText_CountChars(textPage: number): number
  _FPDFText_GetUnicode(textPage: number, index: number): number
  _FPDFText_GetCharBox(textPage: number, index: number, left: number, right: number, bottom: number, top: number): number
}

/** Words are cut at whitespace; a page keeps at most this many characters of text (a hostile page could have millions). */
const MAX_CHARS = 200_000

/**
 * Reads the text of a loaded page with PDFium's text API: every character's code point and box, grouped into
 * words (cut at whitespace, and where the next character is not on the same line). Runs in the renderer process
 * only, under its caps. PDFium's page handle and module are private fields of the library's page object: read
 * them where they are, and refuse (an error, so a 422) rather than guess if a later version moved them.
 */
export function readPageText(page: PDFiumPage): PageText {
  const pdfium = Reflect.get(page, 'module') as Partial<TextApi> | undefined
  const handle = Reflect.get(page, 'pageIdx') as unknown
  if (!pdfium?._FPDFText_GetCharBox || !pdfium._FPDF_PageToDevice || !pdfium.HEAPF64 || !pdfium.HEAP32 || typeof handle !== 'number')
    throw new Error('this PDFium build does not expose its text API')
  const api = pdfium as TextApi
  const textPage = api._FPDFText_LoadPage(handle)
  if (!textPage) throw new Error('PDFium cannot read the text of this page')
  const scratch = api.wasmExports.malloc(4 * 8 + 2 * 4) // a character's box (4 doubles), a point as shown (2 ints)
  try {
    const { width, height, box: shownBox } = pageGeometry(api, handle, scratch + 32)
    const words: PageText['words'] = []
    const count = Math.min(api._FPDFText_CountChars(textPage), MAX_CHARS)
    type Word = { text: string; left: number; top: number; right: number; bottom: number }
    const open: { word: Word | null } = { word: null }
    const close = (lineEnd: boolean) => {
      const word = open.word
      if (word)
        words.push([
          round(word.left / width),
          round(word.top / height),
          round((word.right - word.left) / width),
          round((word.bottom - word.top) / height),
          word.text,
          lineEnd ? 1 : 0,
        ])
      else if (lineEnd && words.length > 0) words[words.length - 1]![5] = 1
      open.word = null
    }
    for (let index = 0; index < count; index++) {
      const code = api._FPDFText_GetUnicode(textPage, index)
      if (code === 0x0d || code === 0x0a) {
        close(true)
        continue
      }
      if (code === 0x20 || code === 0x09 || code === 0xa0 || code === 0xfffe || code === 0 || code > 0x10ffff) {
        close(false)
        continue
      }
      if (!api._FPDFText_GetCharBox(textPage, index, scratch, scratch + 8, scratch + 16, scratch + 24)) continue
      const box = new Float64Array(api.HEAPF64.buffer, scratch, 4) // left, right, bottom, top in user space
      const char = shownBox(box[0]!, box[3]!, box[1]!, box[2]!)
      const text = String.fromCodePoint(code)
      const word = open.word
      // A character that starts below the word, or left of where it began, begins a new line.
      if (word && (char.top >= word.bottom || char.right <= word.left)) close(true)
      if (!open.word) open.word = { text, ...char }
      else {
        const growing = open.word
        growing.text += text
        growing.left = Math.min(growing.left, char.left)
        growing.right = Math.max(growing.right, char.right)
        growing.top = Math.min(growing.top, char.top)
        growing.bottom = Math.max(growing.bottom, char.bottom)
      }
    }
    close(true)
    return { width: round(width), height: round(height), words }
  } finally {
    api.wasmExports.free(scratch)
    api._FPDFText_ClosePage(textPage)
  }
}

/**
 * A PDF's text for the search index beside the renderers' limits: every page's words as plain text (a space
 * between words, a line break where a line ends), page by page, each page let go once read (a long PDF would
 * otherwise hold every page it opened). At most MAX_PDF_CHARS in all: the pages after are left out (empty).
 */
export function readPlainTexts(document: PDFiumDocument): string[] {
  const texts: string[] = []
  let total = 0
  for (let index = 0; index < document.getPageCount(); index++) {
    if (total >= MAX_PDF_CHARS) {
      texts.push('')
      continue
    }
    const page = document.getPage(index)
    try {
      const text = readPageText(page)
        .words.map(([, , , , word, lineEnd]) => (lineEnd ? `${word}\n` : `${word} `))
        .join('')
        .trimEnd()
      total += text.length
      texts.push(text)
    } finally {
      const pdfium = Reflect.get(page, 'module') as { _FPDF_ClosePage?: (handle: number) => void } | undefined
      pdfium?._FPDF_ClosePage?.(Reflect.get(page, 'pageIdx') as number)
    }
  }
  return texts
}

/** A PDF's text kept for search: 20 million characters (about 10,000 dense pages). */
const MAX_PDF_CHARS = 20_000_000
