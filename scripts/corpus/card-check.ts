/**
 * One PDF → is its link card all white, the way pdfshare renders it now and the way it did before the card
 * was cropped to the page’s content and drew form fields? Prints one JSON line. Run in a child
 * process per PDF by cards.ts, so a PDF that hangs PDFium only costs its own timeout.
 */
import { PDFiumLibrary } from '@hyzyla/pdfium'
import wasmPath from '@hyzyla/pdfium/pdfium.wasm' with { type: 'file' }
import sharp from 'sharp'
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, renderFirstPage } from '../../src/core/previews/render-first-page'

/** A card is white when no pixel of it is darker than this in any channel. */
const WHITE_FROM = 245

const pdf = await Bun.file(process.argv[2]!).bytes()
const white = async (png: Buffer) => Math.min(...(await sharp(png).stats()).channels.slice(0, 3).map((c) => c.min)) >= WHITE_FROM
const result: Record<string, unknown> = {}
try {
  result.now = await white((await renderFirstPage(process.argv[2]!, 1024 * 1024 * 1024)).png)
} catch (error) {
  result.now = `failed: ${(error as Error).message.split('\n')[0]}`
}
try {
  result.before = await white(await renderAsBefore(pdf))
} catch (error) {
  result.before = `failed: ${(error as Error).message.split('\n')[0]}`
}
console.log(JSON.stringify(result))
process.exit(0)

/** The card as it was rendered before: no form fields, the page's top 1200×630. */
async function renderAsBefore(bytes: Uint8Array): Promise<Buffer> {
  const library = await PDFiumLibrary.init({ wasmBinary: await Bun.file(wasmPath).arrayBuffer() })
  const document = await library.loadDocument(bytes)
  const page = document.getPage(0)
  const { originalWidth, originalHeight } = page.getOriginalSize()
  const scale = Math.min(PREVIEW_WIDTH / originalWidth, (PREVIEW_HEIGHT * 4) / originalHeight)
  const bitmap = await page.render({ scale, render: 'bitmap' })
  return sharp(Buffer.from(bitmap.data), { raw: { width: bitmap.width, height: bitmap.height, channels: 4 } })
    .flatten({ background: '#ffffff' })
    .resize({ width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT, fit: 'cover', position: 'top', background: '#ffffff' })
    .png()
    .toBuffer()
}
