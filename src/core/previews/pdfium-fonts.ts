import { readFileSync } from 'node:fs'
import type { PDFiumLibrary } from '@hyzyla/pdfium'
// The font packages export no paths to their files, so the files are named where npm puts them.
import koreanPath from '../../../node_modules/@embedpdf/fonts-kr/fonts/NotoSansKR-Regular.otf' with { type: 'file' }
import sansBoldPath from '../../../node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Bold.ttf' with { type: 'file' }
import sansPath from '../../../node_modules/@embedpdf/fonts-latin/fonts/NotoSans-Regular.ttf' with { type: 'file' }
import chinesePath from '../../../node_modules/@embedpdf/fonts-sc/fonts/NotoSansHans-Regular.otf' with { type: 'file' }
import { type Callback, putCallbacks } from './wasm-callbacks'

/** PDFium's charsets (FX_Charset, the Windows values). */
const Charset = {
  ANSI: 0,
  DEFAULT: 1,
  SHIFT_JIS: 128,
  HANGEUL: 129,
  GB2312: 134,
  BIG5: 136,
  GREEK: 161,
  TURKISH: 162,
  VIETNAMESE: 163,
  BALTIC: 186,
  CYRILLIC: 204,
  EAST_EUROPE: 238,
} as const

/** PDFium's pitch-and-family bits (FXFONT_FF_*). */
const FIXED_PITCH = 0x01
const ROMAN = 0x10

/** The fonts PDFium gets for text whose font the PDF does not embed, with the charsets each covers. */
type FontFile = { path: string; face: string; charsets: number[] }
const EUROPEAN = [Charset.ANSI, Charset.GREEK, Charset.TURKISH, Charset.VIETNAMESE, Charset.BALTIC, Charset.CYRILLIC, Charset.EAST_EUROPE]
const SANS: FontFile = { path: sansPath, face: 'Noto Sans', charsets: EUROPEAN }
const SANS_BOLD: FontFile = { path: sansBoldPath, face: 'Noto Sans Bold', charsets: EUROPEAN }
// Noto Sans CJK's simplified-Chinese font holds the traditional characters and Japanese kana too; Hangul needs its own.
const CHINESE: FontFile = { path: chinesePath, face: 'Noto Sans S Chinese', charsets: [Charset.GB2312, Charset.BIG5, Charset.SHIFT_JIS] }
const KOREAN: FontFile = { path: koreanPath, face: 'Noto Sans Korean', charsets: [Charset.HANGEUL] }
const FONTS = [SANS, SANS_BOLD, CHINESE, KOREAN]

/** The font we draw text of our own with (draw-watermark.ts). */
export const SANS_FONT_FILE = sansPath

/** The parts of the emscripten module behind a PDFiumLibrary that giving it fonts needs. */
type PdfiumModule = {
  HEAPU8: Uint8Array
  wasmExports: { malloc(size: number): number; free(pointer: number): void; __indirect_function_table: WebAssembly.Table }
  _FPDF_GetDefaultSystemFontInfo(): number
  _FPDF_FreeDefaultSystemFontInfo(info: number): void
  _FPDF_SetSystemFontInfo(info: number): void
  _FPDF_AddInstalledFont(mapper: number, face: number, charset: number): void
}

/**
 * Gives a fresh PDFium instance the fonts above for text whose font a PDF does not embed. PDFium draws the
 * standard 14 fonts (Helvetica, Times, Courier, Symbol, ZapfDingbats) from fonts built into it, but those hold
 * Latin only, and it looks for everything else in the system's font folders — which in wasm are an empty
 * virtual file system, so such text was not drawn at all (cards blank where a PDF names Arial for Cyrillic).
 *
 * PDFium asks for fonts through an FPDF_SYSFONTINFO, a struct of C function pointers; this one is implemented
 * here in JavaScript. A font's bytes are read from its file into PDFium's memory only when PDFium asks for
 * them: a page in Times pays nothing but the set-up, one in Helvetica reads the 630 KB Noto Sans, and only a
 * page in Chinese reads the 8 MiB Chinese font. PDFium's wasm build cannot add functions to its table, so ours go into the slots of
 * PDFium's own default font info, which this instance then never uses (their addresses are read from it, not
 * assumed). Does nothing if a future version of the library hides what this needs.
 */
export function givePdfiumFonts(library: PDFiumLibrary): void {
  const module = (library as unknown as { module?: Partial<PdfiumModule> }).module
  const table = module?.wasmExports?.__indirect_function_table
  if (
    !module?.HEAPU8 ||
    !table ||
    !module._FPDF_GetDefaultSystemFontInfo ||
    !module._FPDF_SetSystemFontInfo ||
    !module._FPDF_AddInstalledFont
  )
    return
  const pdfium = module as PdfiumModule
  const view = () => new DataView(pdfium.HEAPU8.buffer) // read anew: growing the heap replaces the buffer

  // FPDF_SYSFONTINFO: version, then Release, EnumFonts, MapFont, GetFont, GetFontData, GetFaceName, GetFontCharset, DeleteFont.
  const defaults = pdfium._FPDF_GetDefaultSystemFontInfo()
  if (!defaults) return
  const slots = Array.from({ length: 8 }, (_, i) => view().getUint32(defaults + 4 + i * 4, true))
  pdfium._FPDF_FreeDefaultSystemFontInfo(defaults)

  const fonts = fontInfo(pdfium)
  putCallbacks(table, slots, [
    { params: 1, returns: false, call: () => undefined }, // Release: the struct lives as long as the instance
    { params: 2, returns: false, call: (_, mapper) => fonts.enumerate(mapper!) },
    // MapFont(pThis, weight, italic, charset, pitchFamily, face, exact): italics PDFium slants itself.
    { params: 7, returns: true, call: (_, weight, _italic, charset, pitchFamily) => fonts.map(weight!, charset!, pitchFamily!) },
    { params: 2, returns: true, call: (_, face) => fonts.byName(face!) },
    { params: 5, returns: true, call: (_, handle, tag, buffer, size) => fonts.data(handle!, tag! >>> 0, buffer!, size! >>> 0) },
    { params: 4, returns: true, call: (_, handle, buffer, size) => fonts.faceName(handle!, buffer!, size! >>> 0) },
    { params: 2, returns: true, call: (_, handle) => fonts.charset(handle!) },
    { params: 2, returns: false, call: () => undefined }, // DeleteFont: a handle holds nothing to free
  ] satisfies Callback[])
  const info = pdfium.wasmExports.malloc(36)
  if (!info) return
  view().setUint32(info, 1, true)
  for (const [i, slot] of slots.entries()) view().setUint32(info + 4 + i * 4, slot, true)
  pdfium._FPDF_SetSystemFontInfo(info)
}

/** The font info's answers. A handle is a font and the charset it was chosen for, numbered from 1 (0 is "none"). */
function fontInfo(pdfium: PdfiumModule) {
  const handles: { font: FontFile; charset: number }[] = []
  // A font's bytes, read when PDFium first asks for them and dropped with this instance. Read whole: a file
  // embedded in the binary can be read, not opened for reading parts of it.
  const files = new Map<FontFile, Buffer>()
  const bytesOf = (font: FontFile) => files.get(font) ?? files.set(font, readFileSync(font.path)).get(font)!
  const handleOf = (font: FontFile, charset: number) => {
    const found = handles.findIndex((h) => h.font === font && h.charset === charset)
    return found >= 0 ? found + 1 : handles.push({ font, charset })
  }
  const cString = (pointer: number) => {
    const heap = pdfium.HEAPU8
    let end = pointer
    while (heap[end] !== 0) end++
    return new TextDecoder('latin1').decode(heap.subarray(pointer, end))
  }
  return {
    /** Tells PDFium's font mapper which faces exist (it matches PDFs' font names against them). */
    enumerate(mapper: number): undefined {
      for (const font of FONTS) {
        const bytes = new TextEncoder().encode(`${font.face}\0`)
        const name = pdfium.wasmExports.malloc(bytes.length)
        if (!name) return
        pdfium.HEAPU8.set(bytes, name)
        for (const charset of font.charsets) pdfium._FPDF_AddInstalledFont(mapper, name, charset)
        pdfium.wasmExports.free(name)
      }
    },
    /**
     * The font for a PDF font that is not embedded. Latin in a serif or fixed-pitch font is left to PDFium's
     * built-in Times and Courier (0), which keep the look; scripts the fonts do not cover too. Sans Latin,
     * Helvetica included, gets Noto Sans: for a letter its font lacks (Cyrillic in Times), PDFium asks for
     * "Arial" as Helvetica with the Latin charset, a request no different from Helvetica's own.
     */
    map(weight: number, charset: number, pitchFamily: number): number {
      if (charset === Charset.HANGEUL) return handleOf(KOREAN, charset)
      if (CHINESE.charsets.includes(charset)) return handleOf(CHINESE, charset)
      const latin = charset === Charset.ANSI || charset === Charset.DEFAULT
      if (latin && pitchFamily & (FIXED_PITCH | ROMAN)) return 0
      if (!latin && !SANS.charsets.includes(charset)) return 0
      return handleOf(weight >= 600 ? SANS_BOLD : SANS, latin ? Charset.ANSI : charset)
    },
    byName(face: number): number {
      const name = cString(face)
      const font = FONTS.find((f) => f.face === name)
      return font ? handleOf(font, font.charsets[0]!) : 0
    },
    /** The font file (tag 0) or one of its tables, copied into `buffer` when it fits; its size either way. */
    data(handle: number, tag: number, buffer: number, size: number): number {
      const font = handles[handle - 1]?.font
      if (!font) return 0
      const file = bytesOf(font)
      const [offset, length] = tag === 0 ? [0, file.length] : findTable(file, tag)
      if (length > 0 && buffer !== 0 && size >= length) {
        pdfium.HEAPU8.set(file.subarray(offset, offset + length), buffer)
        // PDFium keeps the whole font it was given: no second copy stays in this process beside it.
        if (tag === 0) files.delete(font)
      }
      return length
    },
    faceName(handle: number, buffer: number, size: number): number {
      const font = handles[handle - 1]?.font
      if (!font) return 0
      const bytes = new TextEncoder().encode(`${font.face}\0`)
      if (buffer !== 0 && size >= bytes.length) pdfium.HEAPU8.set(bytes, buffer)
      return bytes.length
    },
    charset(handle: number): number {
      return handles[handle - 1]?.charset ?? 0
    },
  }
}

/** Where a table is in an sfnt file (TrueType or OpenType): its offset and length, or [0, 0]. */
function findTable(file: Buffer, tag: number): [number, number] {
  if (file.length < 12) return [0, 0]
  const count = file.readUInt16BE(4)
  for (let i = 0; i < count && 12 + i * 16 + 16 <= file.length; i++) {
    const record = 12 + i * 16
    if (file.readUInt32BE(record) === tag) return [file.readUInt32BE(record + 8), file.readUInt32BE(record + 12)]
  }
  return [0, 0]
}
