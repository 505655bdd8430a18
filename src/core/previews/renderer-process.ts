import type { PDFiumDocument } from '@hyzyla/pdfium'
import { rename, writeFile } from 'node:fs/promises'
import { layWatermark } from './lay-watermark'
import { readPageLinks } from './page-links'
import { readPageText, readPlainTexts } from './page-text'
import { readOutline } from './pdf-outline'
import { countPages, loadRenderEngine, renderFirstPage, withPdfium } from './render-first-page'
import { renderPageImages } from './render-page'
import type { RenderJob, RendererMessage } from './renderer-protocol'

/**
 * Room left beside the wasm heap for sharp, the copied bitmap (a 1200×2520 BGRA bitmap is 12 MiB) and
 * emscripten's habit of growing the heap by a fifth more than asked: with 64 MiB a self-drawing form still
 * took the process a few MiB past the cap before PDFium gave up; with 96 MiB it peaks about 40 MiB below.
 */
const HEADROOM = 96 * 1024 * 1024
const MIN_HEAP = 32 * 1024 * 1024

/**
 * A render can keep this thread busy for as long as the server lets it (a PDF that draws itself forever): then
 * the closing channel is never seen, and a server that was killed (kill -9, a crash) would leave its renderer
 * spinning for good. A worker thread watches for this process being handed to another parent, and kills it.
 */
function exitWithServer(): void {
  const watch = `const server = ${process.ppid}
setInterval(() => { if (process.ppid !== server) process.kill(process.pid, 'SIGKILL') }, 1000)`
  const worker = new Worker(URL.createObjectURL(new Blob([watch], { type: 'application/javascript' })))
  // Bun's Worker can be unreferenced (the DOM type does not say so): it never keeps the renderer alive.
  ;(worker as Worker & { unref(): void }).unref()
}

/** The jobs that read something of the whole document, written as JSON at the job's `outPath`. */
const DOCUMENT_READS = { outline: readOutline, texts: readPlainTexts } satisfies Record<string, (document: PDFiumDocument) => unknown>

/**
 * The preview renderer: a child process of the server (`pdfshare __preview-renderer`) that renders one job
 * at a time and answers over Bun's IPC channel. It holds no state worth keeping, so the server kills it
 * whenever a render runs too long or too large, and starts a fresh one for the next job. It exits when the
 * server goes away (the channel closes, or, in the middle of a render, exitWithServer sees it).
 */
export async function runPreviewRenderer(): Promise<void> {
  const send = (message: RendererMessage) => process.send!(message)
  if (!process.send) throw new Error('the preview renderer must be started by the server, with an IPC channel')
  exitWithServer()
  const engine = await loadRenderEngine()
  // libvips keeps what it read of a file by its name: a page or overlay the cache writes anew under the same name
  // would be read as it was (in a renderer that lives on from one job to the next). Every job reads its files once.
  engine.sharp.cache(false)
  const done = new Promise<void>((resolve) => process.once('disconnect', resolve))
  let busy = Promise.resolve()
  process.on('message', (job: RenderJob) => {
    busy = busy.then(async () => {
      try {
        // The wasm heap (which holds the PDF's bytes too) gets what the memory cap leaves beside this process.
        const heapLimit = Math.max(MIN_HEAP, job.memoryLimit - process.memoryUsage.rss() - HEADROOM)
        if (job.kind === 'pages') {
          send({ id: job.id, ok: true, ...(await countPages(engine, job.pdfPath, heapLimit)) })
        } else if (job.kind === 'page') {
          const widths = job.widths ?? []
          const outPaths = job.outPaths ?? []
          if (widths.length === 0 || widths.length !== outPaths.length) throw new Error('a page job needs one path per width')
          const drawn = await renderPageImages(engine, job.pdfPath, heapLimit, job.page ?? 1, widths, { sizes: job.sizes })
          for (const [index, webp] of drawn.webps.entries()) await writeAtomically(outPaths[index]!, webp)
          send({ id: job.id, ok: true, pages: drawn.pages, sizes: drawn.sizes })
        } else if (job.kind === 'text') {
          if (!job.outPath) throw new Error('a text job needs its path')
          const pageNumber = job.page ?? 1
          const { text, pages } = await withPdfium(engine, job.pdfPath, heapLimit, async (document) => {
            const count = document.getPageCount()
            if (pageNumber < 1 || pageNumber > count) throw new Error(`the document has no page ${pageNumber} (it has ${count})`)
            const page = document.getPage(pageNumber - 1)
            return { text: { ...readPageText(page), links: readPageLinks(page, count) }, pages: count }
          })
          await writeAtomically(job.outPath, Buffer.from(JSON.stringify(text)))
          send({ id: job.id, ok: true, pages })
        } else if (job.kind === 'outline' || job.kind === 'texts') {
          if (!job.outPath) throw new Error(`a ${job.kind} job needs its path`)
          const read = DOCUMENT_READS[job.kind]
          const { value, pages } = await withPdfium(engine, job.pdfPath, heapLimit, async (document) => ({
            value: read(document),
            pages: document.getPageCount(),
          }))
          await writeAtomically(job.outPath, Buffer.from(JSON.stringify(value)))
          send({ id: job.id, ok: true, pages })
        } else if (job.kind === 'watermark') {
          if (!job.outPath || !job.imagePath || !job.overlayPath) throw new Error('a watermark job needs its page, overlay and path')
          const laid = await layWatermark(engine.sharp, job.imagePath, job.overlayPath)
          await writeAtomically(job.outPath, laid.bytes)
          send({ id: job.id, ok: true, pages: laid.pages })
        } else if (job.kind === 'stamp' || job.kind === 'overlay') {
          if (!job.outPath || !job.text) throw new Error(`a ${job.kind} job needs its path and text`)
          // pdf-lib and fontkit load with the first watermark: this file is part of every process of the binary.
          const { drawWatermarkOverlay, stampPdfFile } = await import('./watermark-jobs')
          const made =
            job.kind === 'stamp'
              ? await stampPdfFile(job.pdfPath, job.text)
              : await drawWatermarkOverlay(engine, job.outPath, job.text, job.width ?? 0, job.height ?? 0, heapLimit)
          await writeAtomically(job.outPath, made.bytes)
          send({ id: job.id, ok: true, pages: made.pages })
        } else {
          if (!job.outPath) throw new Error('a card job needs its path')
          const card = await renderFirstPage(engine, job.pdfPath, heapLimit)
          await writeAtomically(job.outPath, card.png)
          send({ id: job.id, ok: true, pages: card.pages, sizes: card.sizes })
        }
      } catch (error) {
        send({ id: job.id, ok: false, reason: reasonOf(error) })
      }
      Bun.gc(true) // the last render's wasm memory goes back before the server measures this process again
    })
  })
  send({ ready: true })
  await done
  process.exit(0)
}

/** Writes beside `path`, then renames: readers never see a half-written image. */
async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  const temp = `${path}.tmp`
  await writeFile(temp, bytes)
  await rename(temp, path)
}

/** One short line: PDFium's and emscripten's messages are useful, their stacks are not. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0]!.slice(0, 200) || 'unknown error'
}
