import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { PDFiumDocument, type PDFiumLibrary } from '@hyzyla/pdfium'

/** The parts of the emscripten module behind a PDFiumLibrary that loading a document needs. */
type PdfiumModule = {
  HEAPU8: Uint8Array
  wasmExports: { malloc(size: number): number; free(pointer: number): void }
  _FPDF_LoadMemDocument(pointer: number, size: number, password: number): number
  _FPDF_GetLastError(): number
}

/** PDFium's error codes (fpdfview.h), as the library words them. */
const LOAD_ERRORS: Record<number, string> = {
  2: 'File not found or could not be opened',
  3: 'File not in PDF format or corrupted',
  4: 'Password required or incorrect password',
  5: 'Unsupported security scheme',
}

/**
 * Opens the PDF at `path` in PDFium, reading its bytes straight into the wasm heap. The library's own
 * `loadDocument` takes the bytes from a JavaScript buffer and copies them into the heap, so a 100 MiB PDF
 * would be in the renderer's memory twice, and count twice against its memory cap. Uses the library's
 * emscripten module, which it keeps in a private field; if a future version moves it, the library's own
 * (copying) path is used.
 */
export async function loadIntoPdfium(library: PDFiumLibrary, path: string): Promise<PDFiumDocument> {
  const module = (library as unknown as { module?: Partial<PdfiumModule> }).module
  if (!module?.wasmExports?.malloc || !module._FPDF_LoadMemDocument || !module._FPDF_GetLastError) {
    return library.loadDocument(await Bun.file(path).bytes())
  }
  const pdfium = module as PdfiumModule
  const fd = openSync(path, 'r')
  let pointer = 0
  try {
    const size = fstatSync(fd).size
    pointer = pdfium.wasmExports.malloc(size)
    if (pointer === 0) throw new Error(`no room for its ${size} bytes in PDFium's memory`)
    // HEAPU8 is read after malloc: growing the heap replaces the view.
    for (let read = 0; read < size; ) {
      const got = readSync(fd, pdfium.HEAPU8, pointer + read, size - read, read)
      if (got === 0) throw new Error('the file ended early')
      read += got
    }
    const documentIdx = pdfium._FPDF_LoadMemDocument(pointer, size, 0)
    if (!documentIdx) throw new Error(LOAD_ERRORS[pdfium._FPDF_GetLastError()] ?? 'Unknown error')
    const document = new PDFiumDocument({ module: pdfium as never, documentIdx, documentPtr: pointer })
    pointer = 0 // the document owns it now and frees it when destroyed
    return document
  } finally {
    if (pointer !== 0) pdfium.wasmExports.free(pointer)
    closeSync(fd)
  }
}
