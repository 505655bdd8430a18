import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import sharp from 'sharp'
import { form, startTestApp } from '../support/harness'
import {
  contentStreamBomb,
  formFieldOnly,
  formPatternCycle,
  hugeImagePage,
  selfDrawingForm,
  titleLowOnPage,
} from '../../scripts/support/hostile-pdfs'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { darkest, isPlaceholder, previewOf as preview, STARVED_MS } from '../support/preview-cards'

// Nothing a PDF draws can block or exhaust the server. Renders run in killable renderer
// processes (src/core/previews/renderer-pool.ts, whose own test proves the kill paths). A render may use 1 s of
// CPU time; the connection may stay silent for 2 minutes, so that a renderer starved by a busy machine still
// gets through its 1 s before its wall-clock limit (previewWaitOf) and its answer is the PDF's, not the machine's.
// How long that takes on the wall clock depends on the machine: the tests that wait for it have 3 minutes.
// What every preview request is answered, and when renderers stop: preview-answers.test.ts.
const server = await startTestApp({ PDFSHARE_PREVIEW_TIMEOUT: '1', PDFSHARE_IDLE_TIMEOUT: '120' })
const owner = await server.user()

async function shared(pdf: Uint8Array) {
  const file = await uploadPdf(server, owner, pdf)
  const row = await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, file.id) })
  return { id: file.id, path: sharePathOf(file), blobKey: row!.blobKey }
}
const linesAbout = (id: string) => server.log.lines.filter((line) => line.startsWith(`preview of file ${id}:`))

describe('hostile PDFs get the placeholder, once, and never hurt the server', () => {
  const cases = [
    ['a form XObject that draws itself', selfDrawingForm],
    ['a form → form → pattern → form cycle', formPatternCycle],
    ['a content stream that inflates to 256 MiB of fills', () => contentStreamBomb(256)],
  ] as const

  for (const [name, build] of cases) {
    test(
      `${name}: the placeholder, the failure remembered for this PDF version and logged once in one line`,
      async () => {
        const file = await shared(build())
        const first = await preview(server, file.path)
        expect(first.status).toBe(200)
        expect(first.headers.get('content-type')).toBe('image/png')
        expect(isPlaceholder(first)).toBe(true)
        const marker = server.ctx.previews.pathOf(file.blobKey, 'failed')
        expect(existsSync(marker)).toBe(true)
        expect(readFileSync(marker, 'utf8')).toMatch(/needed more than .* of memory|needed more than 1 s of CPU time/)

        // Remembered: later requests are answered from the marker, without a render (and without a new log line).
        for (let i = 0; i < 3; i++) expect(isPlaceholder(await preview(server, file.path))).toBe(true)
        const lines = linesAbout(file.id)
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(
          /^preview of file \S+: (PDFium needed more than .* of memory|needed more than 1 s of CPU time); serving the placeholder for this version of the PDF$/,
        )
        expect(server.log.errors).toEqual([]) // one info line, no error object, so no stack anywhere
      },
      STARVED_MS,
    )
  }

  test(
    'a replacement is a new version: its preview is tried afresh',
    async () => {
      const file = await shared(selfDrawingForm())
      expect(isPlaceholder(await preview(server, file.path))).toBe(true)
      await server.call('PUT', `/api/files/${file.id}`, {
        token: owner.token,
        body: form({ bytes: makePdf({ text: () => 'Fixed version' }) }),
      })
      const replaced = await preview(server, file.path)
      expect(isPlaceholder(replaced)).toBe(false)
      expect(await darkest(await replaced.arrayBuffer())).toBeLessThan(100)
    },
    STARVED_MS,
  )

  test(
    'a page with a 12,000 × 12,000 image renders within the limits',
    async () => {
      // About the memory cap (432 MB of pixels under 512 MB): the render gets a generous CPU time limit (it needs
      // about a second), so that only memory can stop it.
      const roomy = await startTestApp({ PDFSHARE_PREVIEW_TIMEOUT: '30', PDFSHARE_IDLE_TIMEOUT: '120' })
      const file = await uploadPdf(roomy, await roomy.user(), hugeImagePage())
      const response = await preview(roomy, sharePathOf(file))
      expect(response.status).toBe(200)
      expect(isPlaceholder(response)).toBe(false)
      const { width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
      expect([width, height]).toEqual([1200, 630])
    },
    STARVED_MS,
  )

  test(
    'the event loop keeps answering while a render loops forever',
    async () => {
      const file = await shared(formPatternCycle())
      let rendering = true
      const started = performance.now()
      const render = preview(server, file.path).finally(() => (rendering = false))
      const latencies: number[] = []
      while (rendering) {
        const started = performance.now()
        const health = await server.call('GET', '/api/health')
        latencies.push(performance.now() - started)
        expect(health.status).toBe(200)
        await Bun.sleep(20)
      }
      expect(isPlaceholder(await render)).toBe(true)
      const renderMs = performance.now() - started
      // The render used its full 1 s of CPU time; the health checks around it were never held up by it: had it run
      // on the event loop, one check would have waited for all of it (on any machine, however busy).
      expect(latencies.length).toBeGreaterThan(20)
      expect(Math.max(...latencies)).toBeLessThan(renderMs / 2)
    },
    STARVED_MS,
  )
})

describe('the card shows page 1 as the viewer does', () => {
  test(
    'form fields are drawn with their values',
    async () => {
      const file = await shared(formFieldOnly())
      const response = await preview(server, file.path)
      expect(isPlaceholder(response)).toBe(false)
      expect(await darkest(await response.arrayBuffer())).toBeLessThan(100)
    },
    STARVED_MS,
  )

  test(
    'a page whose content starts low still gets a card with that content, not white paper',
    async () => {
      const file = await shared(titleLowOnPage(450))
      const response = await preview(server, file.path)
      expect(isPlaceholder(response)).toBe(false)
      expect(await darkest(await response.arrayBuffer())).toBeLessThan(100)
    },
    STARVED_MS,
  )

  test(
    'a page with its title at the top keeps the top in the card',
    async () => {
      const file = await shared(titleLowOnPage(60, 'Top Title'))
      const png = Buffer.from(await (await preview(server, file.path)).arrayBuffer())
      // The title's ink sits in the upper part of the card, as on the page.
      const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true })
      let firstDarkRow = -1
      for (let y = 0; y < info.height && firstDarkRow < 0; y++) {
        for (let x = 0; x < info.width && firstDarkRow < 0; x++) if (data[y * info.width + x]! < 100) firstDarkRow = y
      }
      expect(firstDarkRow).toBeGreaterThanOrEqual(0)
      expect(firstDarkRow).toBeLessThan(info.height / 4)
    },
    STARVED_MS,
  )
})

test(
  'a cached or placeholder preview is revalidated, so a shared cache never shows it after a delete',
  async () => {
    const file = await shared(makePdf())
    const response = await preview(server, file.path)
    expect(response.headers.get('cache-control')).toBe('public, no-cache')
    expect(response.headers.get('etag')).toBeTruthy()
    await server.call('DELETE', `/api/files/${file.id}`, { token: owner.token })
    expect((await preview(server, file.path)).status).toBe(404)
  },
  STARVED_MS,
)
