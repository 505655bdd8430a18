import { type PDFiumDocument, PDFiumLibrary } from '@hyzyla/pdfium'
import wasmPath from '@hyzyla/pdfium/pdfium.wasm' with { type: 'file' }
import { formatSize } from '../../shared/sizes'
import { cardWindow, type Bitmap } from './card-window'
import { loadIntoPdfium } from './load-into-pdfium'
import { readPageSizes } from './page-sizes'
import { givePdfiumFonts } from './pdfium-fonts'

/** The link-card size Open Graph and Twitter recommend. */
export const PREVIEW_WIDTH = 1200
export const PREVIEW_HEIGHT = 630

export type Sharp = typeof import('sharp')['default']

/**
 * What every render draws with: PDFium's wasm, compiled (each render instantiates it afresh), and sharp. The
 * renderer process loads it once at its start, ahead of the first render, and hands it to each job.
 */
export type RenderEngine = { pdfium: WebAssembly.Module; sharp: Sharp }

export async function loadRenderEngine(): Promise<RenderEngine> {
  const [pdfium, sharp] = await Promise.all([
    Bun.file(wasmPath)
      .arrayBuffer()
      .then((bytes) => WebAssembly.compile(bytes)),
    import('sharp').then((m) => m.default),
  ])
  return { pdfium, sharp }
}

/**
 * Renders page 1 of a PDF with PDFium (WebAssembly) and encodes a 1200×630 PNG with sharp: the page scaled to
 * the card's width, annotations and form fields drawn as a reader shows them, cropped to where the page's
 * content is (card-window.ts). Every render gets a fresh wasm instance, so the memory a large PDF needed is
 * released afterwards (a wasm memory never shrinks), and `heapLimit` caps what that instance may grow to:
 * past it PDFium's allocations fail and the render stops instead of taking the machine's memory.
 *
 * Runs in the renderer process only (renderer-process.ts): a hostile PDF can make PDFium loop forever, and
 * only a process can be killed.
 */
export async function renderFirstPage(
  engine: RenderEngine,
  pdfPath: string,
  heapLimit: number,
): Promise<{ png: Buffer; pages: number; sizes: string }> {
  const { bitmap, pages, sizes } = await withPdfium(engine, pdfPath, heapLimit, async (document) => ({
    bitmap: await renderPageOne(document),
    pages: document.getPageCount(),
    sizes: readPageSizes(document),
  }))
  if (bitmap.width < 1 || bitmap.height < 1 || bitmap.data.length < bitmap.width * bitmap.height * 4)
    throw new Error('PDFium returned an empty bitmap')
  return { png: await encodeCard(engine.sharp, bitmap), pages, sizes }
}

/** The number of pages of a PDF and their sizes, as PDFium reads them once it has opened it (the same caps as a render). */
export async function countPages(engine: RenderEngine, pdfPath: string, heapLimit: number): Promise<{ pages: number; sizes: string }> {
  return withPdfium(engine, pdfPath, heapLimit, async (document) => ({ pages: document.getPageCount(), sizes: readPageSizes(document) }))
}

/** Opens the PDF in a fresh, capped PDFium instance, runs `use` on it, and tears everything down again. */
export async function withPdfium<T>(
  engine: RenderEngine,
  pdfPath: string,
  heapLimit: number,
  use: (document: PDFiumDocument) => Promise<T>,
): Promise<T> {
  const heap = { refused: false }
  const library = await PDFiumLibrary.init({
    instantiateWasm: (imports, done) => {
      capHeapGrowth(imports, heapLimit, heap)
      void WebAssembly.instantiate(engine.pdfium, imports).then((instance) =>
        (done as unknown as (i: WebAssembly.Instance) => void)(instance),
      )
      return {}
    },
  })
  try {
    givePdfiumFonts(library)
    const document = await loadIntoPdfium(library, pdfPath).catch((error: Error) => {
      throw new Error(`PDFium cannot open it (${error.message})`)
    })
    try {
      return await use(document)
    } finally {
      document.destroy()
    }
  } catch (error) {
    // Once its heap is full PDFium aborts, and every later call into it aborts again: name the cause.
    if (heap.refused) throw new Error(`PDFium needed more than ${formatSize(heapLimit)} of memory`)
    throw error
  } finally {
    try {
      library.destroy()
    } catch {
      // an aborted instance cannot be torn down; it is garbage once this returns
    }
  }
}

async function renderPageOne(document: PDFiumDocument): Promise<Bitmap> {
  if (document.getPageCount() < 1) throw new Error('the document has no pages')
  const page = document.getPage(0)
  const { originalWidth, originalHeight } = page.getOriginalSize()
  if (!(originalWidth > 0 && originalHeight > 0)) throw new Error('page 1 has no size')
  // Scale so the page is as wide as the card, but never render more than a generous height.
  const scale = Math.min(PREVIEW_WIDTH / originalWidth, (PREVIEW_HEIGHT * 4) / originalHeight)
  // renderFormFields draws the fields' values over the page as viewers do; annotations are drawn either way.
  return await page.render({ scale, render: 'bitmap', renderFormFields: true }).catch((error: Error) => {
    throw new Error(`PDFium cannot render page 1 (${error.message})`)
  })
}

async function encodeCard(sharp: Sharp, bitmap: Bitmap): Promise<Buffer> {
  const window = cardWindow(bitmap, PREVIEW_WIDTH / PREVIEW_HEIGHT)
  const image = onWhite(sharp, bitmap)
  // A page less high than the card is shown whole, centred on white.
  if (window) image.extract(window)
  return image
    .resize({ width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT, fit: window ? 'fill' : 'contain', background: '#ffffff' })
    .png({ compressionLevel: 9, palette: false })
    .toBuffer()
}

/** PDFium's bitmap as a sharp image: its BGRA turned into the RGBA sharp reads, transparency on white paper. */
export function onWhite(sharp: Sharp, bitmap: Bitmap) {
  return sharp(Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength), {
    raw: { width: bitmap.width, height: bitmap.height, channels: 4 },
  })
    .recomb([
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 0],
    ])
    .flatten({ background: '#ffffff' })
}

/**
 * Emscripten grows the wasm heap through one import; refusing to grow past the limit makes PDFium's
 * allocation fail (and the render abort) well before the process reaches the memory cap that the server
 * enforces by killing it.
 */
function capHeapGrowth(imports: WebAssembly.Imports, heapLimit: number, heap: { refused: boolean }): void {
  const env = imports.env as Record<string, unknown> | undefined
  const grow = env?.emscripten_resize_heap
  if (!env || typeof grow !== 'function') return
  env.emscripten_resize_heap = (requested: number) => {
    if (requested >>> 0 <= heapLimit) return grow(requested)
    heap.refused = true
    return 0
  }
}
