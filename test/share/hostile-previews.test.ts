import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { form, startTestApp, type TestServer } from '../support/harness'
import {
  contentStreamBomb,
  formFieldOnly,
  formPatternCycle,
  hugeImagePage,
  selfDrawingForm,
  slowPage,
  titleLowOnPage,
} from '../../scripts/support/hostile-pdfs'
import { run, startServer } from '../../scripts/support/process'
import { eventually } from '../support/eventually'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf, uploadPdfTo } from '../support/uploads'
import { SLACKBOT } from '../support/user-agents'

// Nothing a PDF draws can block or exhaust the server. Renders run in killable renderer
// processes (src/core/previews/renderer-pool.ts, whose own test proves the kill paths).
const server = await startTestApp({ PDFSHARE_PREVIEW_TIMEOUT: '3' })
const owner = await server.user()

async function shared(pdf: Uint8Array) {
  const file = await uploadPdf(server, owner, pdf)
  const row = await server.ctx.db.orm.query.files.findFirst({ where: (files, { eq }) => eq(files.id, file.id) })
  return { id: file.id, path: sharePathOf(file), blobKey: row!.blobKey }
}
const preview = (server: TestServer, path: string) =>
  server.app.handle(new Request(`http://localhost${path}/preview.png`, { headers: { 'user-agent': SLACKBOT } }))
const isPlaceholder = (response: Response) => response.headers.get('etag')!.endsWith('-0"')
const linesAbout = (id: string) => server.log.lines.filter((line) => line.startsWith(`preview of file ${id}:`))

/** How dark the darkest pixel of a PNG is (0 black … 255 white): a card with any text on it is well below 128. */
async function darkest(png: ArrayBuffer): Promise<number> {
  const { channels } = await sharp(Buffer.from(png)).stats()
  return Math.min(...channels.slice(0, 3).map((c) => c.min))
}

describe('hostile PDFs get the placeholder, once, and never hurt the server', () => {
  const cases = [
    ['a form XObject that draws itself', selfDrawingForm],
    ['a form → form → pattern → form cycle', formPatternCycle],
    ['a content stream that inflates to 256 MiB of fills', () => contentStreamBomb(256)],
  ] as const

  for (const [name, build] of cases) {
    test(`${name}: the placeholder, the failure remembered for this PDF version and logged once in one line`, async () => {
      const file = await shared(build())
      const first = await preview(server, file.path)
      expect(first.status).toBe(200)
      expect(first.headers.get('content-type')).toBe('image/png')
      expect(isPlaceholder(first)).toBe(true)
      const marker = server.ctx.previews.pathOf(file.blobKey, 'failed')
      expect(existsSync(marker)).toBe(true)
      expect(readFileSync(marker, 'utf8')).toMatch(/needed more than .* of memory|took longer than 3 s/)

      // Remembered: later requests are answered from the marker, without a render (and without a new log line).
      for (let i = 0; i < 3; i++) expect(isPlaceholder(await preview(server, file.path))).toBe(true)
      const lines = linesAbout(file.id)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(
        /^preview of file \S+: (PDFium needed more than .* of memory|took longer than 3 s); serving the placeholder for this version of the PDF$/,
      )
      expect(server.log.errors).toEqual([]) // one info line, no error object, so no stack anywhere
    })
  }

  test('a replacement is a new version: its preview is tried afresh', async () => {
    const file = await shared(selfDrawingForm())
    expect(isPlaceholder(await preview(server, file.path))).toBe(true)
    await server.call('PUT', `/api/files/${file.id}`, {
      token: owner.token,
      body: form({ bytes: makePdf({ text: () => 'Fixed version' }) }),
    })
    const replaced = await preview(server, file.path)
    expect(isPlaceholder(replaced)).toBe(false)
    expect(await darkest(await replaced.arrayBuffer())).toBeLessThan(100)
  })

  test('a page with a 12,000 × 12,000 image renders within the limits', async () => {
    const file = await shared(hugeImagePage())
    const response = await preview(server, file.path)
    expect(response.status).toBe(200)
    expect(isPlaceholder(response)).toBe(false)
    const { width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
    expect([width, height]).toEqual([1200, 630])
  })

  test('the event loop keeps answering while a render loops forever', async () => {
    const file = await shared(formPatternCycle())
    let rendering = true
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
    // The render took the full 3 s limit; the health checks around it were never held up by it.
    expect(latencies.length).toBeGreaterThan(20)
    expect(Math.max(...latencies)).toBeLessThan(1000)
  })
})

describe('the card shows page 1 as the viewer does', () => {
  test('form fields are drawn with their values', async () => {
    const file = await shared(formFieldOnly())
    const response = await preview(server, file.path)
    expect(isPlaceholder(response)).toBe(false)
    expect(await darkest(await response.arrayBuffer())).toBeLessThan(100)
  })

  test('a page whose content starts low still gets a card with that content, not white paper', async () => {
    const file = await shared(titleLowOnPage(450))
    const response = await preview(server, file.path)
    expect(isPlaceholder(response)).toBe(false)
    expect(await darkest(await response.arrayBuffer())).toBeLessThan(100)
  })

  test('a page with its title at the top keeps the top in the card', async () => {
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
  })
})

test('a cached or placeholder preview is revalidated, so a shared cache never shows it after a delete', async () => {
  const file = await shared(makePdf())
  const response = await preview(server, file.path)
  expect(response.headers.get('cache-control')).toBe('public, no-cache')
  expect(response.headers.get('etag')).toBeTruthy()
  await server.call('DELETE', `/api/files/${file.id}`, { token: owner.token })
  expect((await preview(server, file.path)).status).toBe(404)
})

test('renderers stop with the server', async () => {
  const other = await startTestApp()
  const user = await other.user()
  const path = sharePathOf(await uploadPdf(other, user))
  const childrenOf = () =>
    new Set(readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number))
  const before = childrenOf()
  expect((await preview(other, path)).status).toBe(200)
  const renderers = [...childrenOf()].filter(
    (pid) => !before.has(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('__preview-renderer'),
  )
  expect(renderers).toHaveLength(1)
  other.app.listen({ port: 0, hostname: '127.0.0.1' })
  await other.app.stop()
  await Bun.sleep(100)
  expect(existsSync(join('/proc', String(renderers[0])))).toBe(false)
})

describe('a preview request always gets an answer', () => {
  test('a correct PDF that is only slow gets its card on a second try, in the background, with more time', async () => {
    const impatient = await startTestApp({ PDFSHARE_PREVIEW_TIMEOUT: '1' })
    const user = await impatient.user()
    const file = await uploadPdf(impatient, user, slowPage(6_000)) // about 1.8 s to draw here
    const first = await preview(impatient, sharePathOf(file))
    expect(isPlaceholder(first)).toBe(true)
    const lines = () => impatient.log.lines.filter((line) => line.startsWith(`preview of file ${file.id}:`))
    // On a loaded machine the renderer may get under a quarter of the CPU in its second: then the machine is
    // blamed, not the PDF, and the next request renders it as any other; otherwise the second try does.
    const firstLine = lines()[0]!
    expect(firstLine).toMatch(/took longer than 1 s( while the machine was busy \(\d\.\d s on the CPU\))?; serving the placeholder/)
    await eventually(async () => expect(isPlaceholder(await preview(impatient, sharePathOf(file)))).toBe(false), 40_000)
    const card = await preview(impatient, sharePathOf(file))
    expect(await darkest(await card.arrayBuffer())).toBeLessThan(128) // the page's title is on it
    if (!firstLine.includes('busy')) expect(lines().at(-1)).toBe(`preview of file ${file.id}: rendered on its second try (up to 30 s)`)
    // Its pages were counted with it.
    expect(
      await impatient.ctx.db.hot.get('SELECT pages FROM pdf_pages WHERE blob_key = (SELECT blob_key FROM files WHERE id = ?)', [file.id]),
    ).toEqual([1])
  }, 60_000)

  test('past the idle timeout no request is left unanswered: the placeholder, pending, and the render goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdfshare-preview-wait-'))
    try {
      await run(['user', 'add', 'waiter', '--data', dir])
      const token = (await run(['token', 'issue', 'waiter', '--data', dir])).stdout.trim()
      // A connection silent for 2 s is dropped; renders get 1 s each, two at a time.
      const server = await startServer(['--data', dir], { env: { PDFSHARE_IDLE_TIMEOUT: '2', PDFSHARE_PREVIEW_TIMEOUT: '1' } })
      try {
        const files = []
        for (let i = 0; i < 6; i++) files.push(await uploadPdfTo(server.url, token, slowPage(6_000 + i)))
        const started = performance.now()
        const answers = await Promise.all(
          files.map(async (file) => {
            const response = await fetch(`${file.shareUrl.replace(/^https?:\/\/[^/]+/, server.url)}/preview.png`, {
              headers: { 'user-agent': SLACKBOT },
            })
            return {
              status: response.status,
              pending: response.headers.get('x-preview'),
              cache: response.headers.get('cache-control'),
              ms: performance.now() - started,
            }
          }),
        )
        // Every one answered (before, 4 of 16 such requests got no answer at all), within the 2 s.
        expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200))
        expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(2_000)
        const pending = answers.filter((answer) => answer.pending === 'pending')
        expect(pending.length).toBeGreaterThan(0)
        expect(pending.every((answer) => answer.cache === 'no-store')).toBe(true)
      } finally {
        await server.stop()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  test('a preview timeout that no request could wait for is refused at start', async () => {
    const refused = await run(['user', 'list', '--data', join(tmpdir(), 'never-made')], {
      env: { PDFSHARE_IDLE_TIMEOUT: '30', PDFSHARE_PREVIEW_TIMEOUT: '30' },
    })
    expect(refused.code).toBe(2)
    expect(refused.stderr.trim()).toBe(
      'pdfshare: PDFSHARE_PREVIEW_TIMEOUT (30 s) must be shorter than PDFSHARE_IDLE_TIMEOUT (30 s): a connection silent that long is dropped, so no preview that takes as long could ever be answered',
    )
  })
})
