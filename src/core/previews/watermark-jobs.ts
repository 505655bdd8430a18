import { rm } from 'node:fs/promises'
import { stampPdf, watermarkMaskPdf } from './draw-watermark'
import { WATERMARK_STYLE } from './watermark-style'
import { type RenderEngine, withPdfium } from './render-first-page'

/** The largest page image a watermark overlay is drawn for (the widest page width, a page four times as high). */
const MAX_OVERLAY = { width: 2400, height: 9600 }

/** The renderer's `stamp` job: the PDF at `pdfPath` with `text` drawn across every page (draw-watermark.ts). */
export async function stampPdfFile(pdfPath: string, text: string): Promise<{ bytes: Buffer; pages: number }> {
  const { pdf, pages } = await stampPdf(await Bun.file(pdfPath).bytes(), text).catch((error: Error) => {
    throw new Error(`the PDF cannot be watermarked (${error.message.split('\n')[0]})`)
  })
  return { bytes: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), pages }
}

/**
 * The renderer's `overlay` job: `text` drawn as a watermark for a `width` × `height` page image, as a one-channel
 * PNG of the ink's strength at each pixel (0: none). Drawn by PDFium from a one-page PDF that pdf-lib writes the way
 * it stamps a download, so the two look alike; PDFium draws black on white, and how dark a pixel is, times
 * WATERMARK_STYLE.opacity, is the strength the watermark's grey is laid over the page with.
 */
export async function drawWatermarkOverlay(
  engine: RenderEngine,
  outPath: string,
  text: string,
  width: number,
  height: number,
  heapLimit: number,
) {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1))
    throw new Error('an overlay needs a whole width and height')
  if (width > MAX_OVERLAY.width || height > MAX_OVERLAY.height)
    throw new Error(`an overlay is at most ${MAX_OVERLAY.width} × ${MAX_OVERLAY.height}`)
  // PDFium opens files: the mask PDF is written beside the overlay, and removed.
  const maskPath = `${outPath}.pdf`
  await Bun.write(maskPath, await watermarkMaskPdf(text, width, height))
  try {
    const bitmap = await withPdfium(engine, maskPath, heapLimit, (document) => document.getPage(0).render({ scale: 1, render: 'bitmap' }))
    const { sharp } = engine
    const raw = { width: bitmap.width, height: bitmap.height }
    // The ink's strength from PDFium's BGRA on white: how far each pixel's green is from white.
    const ink = Buffer.alloc(raw.width * raw.height)
    for (let i = 0; i < ink.length; i++) ink[i] = Math.round((255 - bitmap.data[i * 4 + 1]!) * WATERMARK_STYLE.opacity)
    // Kept as the ink's strength alone (one channel): the grey is added where it is laid over a page (watermarks.ts).
    const png = await sharp(ink, { raw: { ...raw, channels: 1 } })
      .png({ compressionLevel: 6 })
      .toBuffer()
    return { bytes: png, pages: 1 }
  } finally {
    await rm(maskPath, { force: true })
  }
}
