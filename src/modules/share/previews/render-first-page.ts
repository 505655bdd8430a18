import { PDFiumLibrary } from '@hyzyla/pdfium'
import wasmPath from '@hyzyla/pdfium/pdfium.wasm' with { type: 'file' }

/** The link-card size Open Graph and Twitter recommend. */
export const PREVIEW_WIDTH = 1200
export const PREVIEW_HEIGHT = 630

let compiled: Promise<WebAssembly.Module> | undefined
let sharpModule: Promise<typeof import('sharp')['default']> | undefined

/**
 * Renders page 1 of a PDF with PDFium (WebAssembly) and encodes a 1200×630 PNG with sharp: the page scaled to
 * the card's width, showing its top (where titles are). The wasm is compiled once; every render gets a fresh
 * instance, so the memory a large PDF needed is released afterwards (a wasm memory never shrinks).
 */
export async function renderFirstPage(pdf: Uint8Array): Promise<Buffer> {
  compiled ??= Bun.file(wasmPath).arrayBuffer().then((bytes) => WebAssembly.compile(bytes))
  const module = await compiled
  const library = await PDFiumLibrary.init({
    instantiateWasm: (imports, done) => {
      void WebAssembly.instantiate(module, imports).then((instance) => (done as unknown as (i: WebAssembly.Instance) => void)(instance))
      return {}
    },
  })
  let bitmap: { width: number; height: number; data: Uint8Array }
  try {
    const document = await library.loadDocument(pdf).catch((error: Error) => {
      throw new UnrenderablePdfError(error.message)
    })
    try {
      const page = document.getPage(0)
      const { originalWidth, originalHeight } = page.getOriginalSize()
      // Scale so the page is as wide as the card, but never render more than a generous height.
      const scale = Math.min(PREVIEW_WIDTH / originalWidth, (PREVIEW_HEIGHT * 4) / originalHeight)
      bitmap = await page.render({ scale, render: 'bitmap' }).catch((error: Error) => {
        throw new UnrenderablePdfError(error.message)
      })
    } finally {
      document.destroy()
    }
  } finally {
    library.destroy()
  }

  sharpModule ??= import('sharp').then((m) => m.default)
  const sharp = await sharpModule
  return sharp(Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength), {
    raw: { width: bitmap.width, height: bitmap.height, channels: 4 },
  })
    .recomb([[0, 0, 1], [0, 1, 0], [1, 0, 0]]) // PDFium writes BGRA; sharp reads RGBA
    .flatten({ background: '#ffffff' })
    .resize({ width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT, fit: 'cover', position: 'top', background: '#ffffff' })
    .png({ compressionLevel: 9, palette: false })
    .toBuffer()
}

/** PDFium could not open or render the document: a property of the file, worth remembering. */
export class UnrenderablePdfError extends Error {
  override name = 'UnrenderablePdfError'
}
