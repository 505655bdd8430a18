/**
 * `bun scripts/corpus/run.ts [--viewer] [--pages] DIR…`: every PDF of some public corpus through the compiled
 * binary, as users would send them: upload, the link preview, (with --pages) pages 1 to 3 and page 1's text drawn
 * on the server for a link that does not allow downloads (pages.ts), and (with --viewer) the share page in
 * Chromium. Meanwhile a client asks `/api/health` every 20 ms. Prints a summary and writes every result to
 * test-output/corpus.json, also as it goes (every 10 PDFs); SIGINT ends the run after the current PDF with the
 * summary of what it reached. With --pages the server does not draw page 1 ahead (PDFSHARE_DRAW_AHEAD=false), so
 * each page's time is its drawing, and trusts X-Forwarded-For, so each PDF is read from an address of its own.
 * Corpora are not part of the repository: fetch them yourself (pdf.js's test/pdfs, qpdf's test files, py-pdf's
 * sample-files).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { sharedServer } from '../bench/share'
import { ensureBinary, memoryOf, ROOT } from '../bench/support'
import { launchHeadlessChromium } from '../support/chromium'
import { type PagesResult, pagesSummary, readPages } from './pages'

const viewer = process.argv.includes('--viewer')
const pages = process.argv.includes('--pages')
const dirs = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const files = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .map((name) => join(dir, name)),
)
if (files.length === 0) throw new Error('usage: bun scripts/corpus/run.ts [--viewer] [--pages] DIR… (folders of PDFs)')

const binary = ensureBinary()
const server = await sharedServer(binary, 'corpus', pages ? { PDFSHARE_DRAW_AHEAD: 'false', PDFSHARE_TRUST_PROXY: '1' } : {})
const { dataDir, token } = server
let stopping = false
process.on('SIGINT', () => {
  if (stopping) process.exit(130)
  stopping = true
  console.error('SIGINT: ending after the current PDF (again to quit at once)')
})

type Result = {
  file: string
  bytes: number
  upload: number
  error?: string
  previewMs?: number
  preview?: 'rendered' | 'placeholder'
  viewer?: string
  pages?: PagesResult
  /** With --pages, for a PDF whose page 1 the server cannot draw or finds no page 1 in: what pdf.js makes of it. */
  pdfjs?: { pages: number; text: number } | { error: string } | 'timed out'
}
const results: Result[] = []
const healthMs: number[] = []
let serverPeak = memoryOf(server.pid).rss
let running = true
const prober = (async () => {
  while (running) {
    const started = performance.now()
    try {
      await (await fetch(`${server.url}/api/health`)).arrayBuffer()
      healthMs.push(performance.now() - started)
      serverPeak = Math.max(serverPeak, memoryOf(server.pid).rss)
    } catch {
      break // the server is gone (a SIGINT to the whole process group): the summary says what was reached
    }
    await Bun.sleep(20)
  }
})()

const started = performance.now()
const links = new Map<Result, string>()
let uploadSeconds: number | undefined
for (const [index, file] of files.entries()) {
  if (stopping) break
  if (index % 10 === 0) writeResults(false)
  try {
    await sendThrough(file, index)
  } catch (error) {
    if (stopping) break // the server went with the SIGINT
    throw error
  }
}
uploadSeconds = (performance.now() - started) / 1000

/** One PDF uploaded, its link card asked for, and (with --pages) its pages read through a no-download link. */
async function sendThrough(file: string, index: number) {
  const bytes = statSync(file).size
  const body = new FormData()
  body.append('file', new File([Bun.file(file)], basename(file), { type: 'application/pdf' }))
  const response = await fetch(`${server.url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body })
  const json = await response.json()
  const result: Result = { file: basename(file), bytes, upload: response.status }
  results.push(result)
  if (response.status !== 201) {
    result.error = json.code
    return
  }
  const link = `${server.url}${new URL(json.data.shareUrl).pathname}`
  links.set(result, link)
  const previewStarted = performance.now()
  const preview = await fetch(`${link}/preview.png`)
  await preview.arrayBuffer()
  result.previewMs = performance.now() - previewStarted
  result.preview = preview.headers.get('etag')?.endsWith('-0"') ? 'placeholder' : 'rendered'
  // One address a PDF, 10.x.y.z: a reader's draw budget is per address.
  if (pages) result.pages = await readPages(server, json.data.id, `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`)
}

if (viewer && !stopping) {
  const browser = await launchHeadlessChromium()
  for (const [result, link] of links) {
    if (stopping) break
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
    try {
      await page.goto(link, { timeout: 20_000 })
      // The viewer's status element says loading, error or ready; ready with page 1's canvas drawn is a success.
      result.viewer = await page
        .waitForFunction(
          () => {
            const status = document.querySelector<HTMLElement>('[data-state]')
            const state = status?.dataset.state
            if (state === 'error') return `error (${status!.dataset.problem}): ${status!.querySelector('.status-title')?.textContent ?? ''}`
            const firstPage = document.querySelector('.page')
            if (state === 'ready' && firstPage?.querySelector('.page-error')) return 'page 1 shown as an error, the rest readable'
            if (state === 'ready' && firstPage?.querySelector('canvas')) return 'rendered'
            return false
          },
          undefined,
          { timeout: 20_000, polling: 100 },
        )
        .then((handle) => handle.jsonValue() as Promise<string>)
        .catch(
          async () =>
            `still loading after 20 s (${await page
              .locator('[data-state]')
              .first()
              .getAttribute('data-state')
              .catch(() => '?')})`,
        )
    } catch (error) {
      result.viewer = `navigation failed: ${(error as Error).message.split('\n')[0]}`
    } finally {
      await page.close()
    }
  }
  await browser.close()
}

running = false
await prober

// What pdf.js makes of the PDFs whose page 1 the server cannot draw (422) or does not find (404: PDFium counts no
// pages): one child process each, 20 s at most.
for (const result of results.filter((r) => [422, 404].includes(r.pages?.asked['1']?.status as number))) {
  const child = Bun.spawn(
    ['timeout', '20', 'bun', join(import.meta.dir, 'pdfjs-opens.ts'), files.find((f) => basename(f) === result.file)!],
    {
      stdout: 'pipe',
      stderr: 'ignore',
    },
  )
  const line = (await new Response(child.stdout).text()).trim().split('\n').pop() ?? ''
  result.pdfjs = (await child.exited) === 0 && line.startsWith('{') ? JSON.parse(line) : 'timed out'
}
const summary = summarize()
await server.stop()
writeResults(true, summary)
console.log(JSON.stringify(summary, null, 2))

/** The summary of what the run reached so far (the previews' failure reasons read from the data dir). */
function summarize() {
  const failedReasons = new Map<string, number>()
  const previews = join(dataDir, 'previews')
  for (const name of existsSync(previews) ? readdirSync(previews).filter((n) => n.endsWith('.failed')) : []) {
    const reason = readFileSync(join(previews, name), 'utf8')
      .trim()
      .replace(/\d+(\.\d+)? ?(MB|s)\b/g, 'N $2')
      .replace(/\(.*\)/, '(…)')
    failedReasons.set(reason, (failedReasons.get(reason) ?? 0) + 1)
  }
  const health = [...healthMs].sort((a, b) => a - b)
  const count = (predicate: (r: Result) => boolean) => results.filter(predicate).length
  const previewTimes = results.flatMap((r) => (r.previewMs === undefined ? [] : [r.previewMs])).sort((a, b) => a - b)
  return {
    of: files.length,
    files: results.length,
    uploaded: count((r) => r.upload === 201),
    refused: Object.fromEntries(
      [...new Set(results.filter((r) => r.upload !== 201).map((r) => `${r.upload} ${r.error}`))].map((k) => [
        k,
        count((r) => `${r.upload} ${r.error}` === k),
      ]),
    ),
    previews: {
      rendered: count((r) => r.preview === 'rendered'),
      placeholder: count((r) => r.preview === 'placeholder'),
      p50Ms: Math.round(previewTimes[Math.floor(previewTimes.length / 2)] ?? 0),
      maxMs: Math.round(previewTimes.at(-1) ?? 0),
      failures: Object.fromEntries(failedReasons),
    },
    viewer: viewer
      ? Object.fromEntries([...new Set(results.flatMap((r) => (r.viewer ? [r.viewer] : [])))].map((k) => [k, count((r) => r.viewer === k)]))
      : 'not run (--viewer)',
    pages: pages ? pagesSummary(results) : 'not run (--pages)',
    health: {
      checks: health.length,
      p99Ms: Number((health[Math.floor(health.length * 0.99)] ?? 0).toFixed(1)),
      maxMs: Number((health.at(-1) ?? 0).toFixed(1)),
    },
    serverPeakRssMiB: Math.round(serverPeak / 2 ** 20),
    uploadAndPreviewSeconds: Math.round(uploadSeconds ?? (performance.now() - started) / 1000),
  }
}

/** Every result so far into test-output/corpus.json, with the summary when the run is done (or cut short). */
function writeResults(done: boolean, summary: ReturnType<typeof summarize> = summarize()) {
  mkdirSync(join(ROOT, 'test-output'), { recursive: true })
  writeFileSync(join(ROOT, 'test-output', 'corpus.json'), JSON.stringify({ done, summary, results }, null, 1))
}
