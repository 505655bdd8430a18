/**
 * `bun scripts/corpus/run.ts [--viewer] DIR…`: every PDF of some public corpus through the compiled binary,
 * as users would send them: upload, the link preview, and (with --viewer) the share page in Chromium.
 * Meanwhile a client asks `/api/health` every 20 ms. Prints a summary (and writes every result to
 * test-output/corpus.json). Corpora are not part of the repository: fetch them yourself (pdf.js's test/pdfs,
 * qpdf's test files, py-pdf's sample-files).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { sharedServer } from '../bench/share'
import { ensureBinary, memoryOf, ROOT } from '../bench/support'
import { launchHeadlessChromium } from '../support/chromium'

const viewer = process.argv.includes('--viewer')
const dirs = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const files = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .map((name) => join(dir, name)),
)
if (files.length === 0) throw new Error('usage: bun scripts/corpus/run.ts [--viewer] DIR… (folders of PDFs)')

const binary = ensureBinary()
const server = await sharedServer(binary, 'corpus')
const { dataDir, token } = server

type Result = {
  file: string
  bytes: number
  upload: number
  error?: string
  previewMs?: number
  preview?: 'rendered' | 'placeholder'
  viewer?: string
}
const results: Result[] = []
const healthMs: number[] = []
let serverPeak = memoryOf(server.pid).rss
let running = true
const prober = (async () => {
  while (running) {
    const started = performance.now()
    await (await fetch(`${server.url}/api/health`)).arrayBuffer()
    healthMs.push(performance.now() - started)
    serverPeak = Math.max(serverPeak, memoryOf(server.pid).rss)
    await Bun.sleep(20)
  }
})()

const started = performance.now()
const links = new Map<Result, string>()
for (const file of files) {
  const bytes = statSync(file).size
  const body = new FormData()
  body.append('file', new File([Bun.file(file)], basename(file), { type: 'application/pdf' }))
  const response = await fetch(`${server.url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body })
  const json = await response.json()
  const result: Result = { file: basename(file), bytes, upload: response.status }
  results.push(result)
  if (response.status !== 201) {
    result.error = json.code
    continue
  }
  const link = `${server.url}${new URL(json.data.shareUrl).pathname}`
  links.set(result, link)
  const previewStarted = performance.now()
  const preview = await fetch(`${link}/preview.png`)
  await preview.arrayBuffer()
  result.previewMs = performance.now() - previewStarted
  result.preview = preview.headers.get('etag')?.endsWith('-0"') ? 'placeholder' : 'rendered'
}
const uploadSeconds = (performance.now() - started) / 1000

if (viewer) {
  const browser = await launchHeadlessChromium()
  for (const [result, link] of links) {
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
const failedReasons = new Map<string, number>()
for (const name of readdirSync(join(dataDir, 'previews')).filter((n) => n.endsWith('.failed'))) {
  const reason = readFileSync(join(dataDir, 'previews', name), 'utf8')
    .trim()
    .replace(/\d+(\.\d+)? ?(MB|s)\b/g, 'N $2')
    .replace(/\(.*\)/, '(…)')
  failedReasons.set(reason, (failedReasons.get(reason) ?? 0) + 1)
}
await server.stop()

healthMs.sort((a, b) => a - b)
const count = (predicate: (r: Result) => boolean) => results.filter(predicate).length
const previewTimes = results.flatMap((r) => (r.previewMs === undefined ? [] : [r.previewMs])).sort((a, b) => a - b)
const summary = {
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
  health: {
    checks: healthMs.length,
    p99Ms: Number((healthMs[Math.floor(healthMs.length * 0.99)] ?? 0).toFixed(1)),
    maxMs: Number((healthMs.at(-1) ?? 0).toFixed(1)),
  },
  serverPeakRssMiB: Math.round(serverPeak / 2 ** 20),
  uploadAndPreviewSeconds: Math.round(uploadSeconds),
}
mkdirSync(join(ROOT, 'test-output'), { recursive: true })
writeFileSync(join(ROOT, 'test-output', 'corpus.json'), JSON.stringify({ summary, results }, null, 1))
console.log(JSON.stringify(summary, null, 2))
