/**
 * One PDF → how pdfshare draws it: is its link card drawn, all white or refused, are pages 2 and 3 drawn as page
 * images, and how much text pdf.js finds on page 1 (a white card over a page with text is a page PDFium drew
 * without its text, usually for want of a font). Prints one JSON line. Run in a child process per PDF by
 * cards.ts, so a PDF that hangs PDFium only costs its own timeout.
 */
import sharp from 'sharp'
import { loadRenderEngine, renderFirstPage } from '../../src/core/previews/render-first-page'
import { renderPageImages } from '../../src/core/previews/render-page'

/** An image is white when no pixel of it is darker than this in any channel. */
const WHITE_FROM = 245
const HEAP = 1024 * 1024 * 1024

const file = process.argv[2]!
const engine = await loadRenderEngine()
const white = async (image: Buffer) => Math.min(...(await sharp(image).stats()).channels.slice(0, 3).map((c) => c.min)) >= WHITE_FROM
const failure = (error: unknown) => `failed: ${(error as Error).message.split('\n')[0]}`
const result: { card?: string; cardMs?: number; pages?: Record<number, string>; pageMs?: number[]; text?: number | string } = {}

let pageCount = 0
const cardStarted = performance.now()
try {
  const { png, pages } = await renderFirstPage(engine, file, HEAP)
  pageCount = pages
  result.card = (await white(png)) ? 'white' : 'drawn'
} catch (error) {
  result.card = failure(error)
}
result.cardMs = Math.round(performance.now() - cardStarted)

result.pages = {}
result.pageMs = []
for (let page = 2; page <= Math.min(3, pageCount); page++) {
  const started = performance.now()
  try {
    result.pages[page] = (await white((await renderPageImages(engine, file, HEAP, page, [800])).webps[0]!)) ? 'white' : 'drawn'
  } catch (error) {
    result.pages[page] = failure(error)
  }
  result.pageMs.push(Math.round(performance.now() - started))
}

try {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const document = await pdfjs.getDocument({ data: await Bun.file(file).bytes(), verbosity: 0 }).promise
  const content = await (await document.getPage(1)).getTextContent()
  result.text = content.items
    .map((item) => ('str' in item ? item.str : ''))
    .join('')
    .replace(/\s/g, '').length
} catch (error) {
  result.text = failure(error)
}
console.log(JSON.stringify(result))
process.exit(0)
