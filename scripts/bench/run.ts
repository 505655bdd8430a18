/**
 * `bun run bench`: the numbers the project tracks, measured against the compiled binary.
 * Targets (checked here, not in timed tests): a 100 MiB upload adds at most ~32 MiB to the server's peak RSS.
 */
import { statSync } from 'node:fs'
import { existsSync } from 'node:fs'
import { coldStart } from './cold-start'
import { floodImpact } from './flood'
import { previewTimes, viewerLoad } from './share'
import { ensureBinary, mib } from './support'
import { uploadOf100MiB } from './upload'

const binary = ensureBinary()
const results: Record<string, string> = {}
results['binary size'] = mib(statSync(binary).size)

const cold = await coldStart(binary)
results['cold start → first 200, new data dir (median of 7)'] = `${cold.firstStartMs.toFixed(0)} ms`
results['cold start → first 200, existing data dir (median of 7)'] = `${cold.warmDataMs.toFixed(0)} ms`

const upload = await uploadOf100MiB(binary)
results['100 MiB upload: extra peak RSS'] = mib(upload.extraPeakBytes)
results['100 MiB upload: server RSS before'] = mib(upload.baselineRss)
results['100 MiB upload: wall time (curl, durable)'] = `${upload.seconds.toFixed(2)} s`

const flood = await floodImpact(binary)
results['GET /api/files, 16 clients: alone'] = `${flood.alone.rps.toFixed(0)} req/s, p95 ${flood.alone.p95.toFixed(1)} ms`
results[`GET /api/files during ${flood.slowConnections} slow clients`] = `${flood.flooded.rps.toFixed(0)} req/s, p95 ${flood.flooded.p95.toFixed(1)} ms, ${flood.flooded.failures} failed`

const previews = await previewTimes(binary)
results['preview render, first after start (cold)'] = `${previews.coldMs.toFixed(0)} ms`
results['preview render, new small PDF (warm, median of 5)'] = `${previews.warmMs.toFixed(0)} ms`
results['preview render, 60-page 16 MB PDF'] = `${previews.largeMs.toFixed(0)} ms`
results['preview, cached (median of 20)'] = `${previews.cachedMs.toFixed(1)} ms`

if (existsSync('/usr/bin/chromium')) {
  const viewer = await viewerLoad(binary)
  results['viewer: page 1 of 60-page 16 MB PDF after navigation (median of 5)'] = `${viewer.firstPageMs.toFixed(0)} ms`
  results['viewer: PDF bytes fetched before page 1'] = `${(viewer.pdfBytes / 1024).toFixed(0)} KiB of ${mib(viewer.pdfSize)} (${((viewer.pdfBytes / viewer.pdfSize) * 100).toFixed(1)} %)`
  // The page's DevTools session does not see the worker's own script request; add its brotli size from the build.
  const manifest = JSON.parse(await Bun.file('viewer/dist/manifest.json').text())
  const workerBytes = Bun.file(`viewer/dist/${manifest.pdfjs}/pdf.worker.min.mjs.br`).size
  results['viewer: transfer without the PDF (cold cache, brotli)'] = `${((viewer.viewerBytes + workerBytes) / 1024).toFixed(0)} KiB (page, script, style ${(viewer.viewerBytes / 1024).toFixed(0)} KiB + pdf.js worker ${(workerBytes / 1024).toFixed(0)} KiB)`
} else {
  results['viewer'] = 'skipped: no /usr/bin/chromium (apt-get install -y chromium)'
}

const width = Math.max(...Object.keys(results).map((k) => k.length))
for (const [name, value] of Object.entries(results)) console.log(`${name.padEnd(width)}  ${value}`)

const budget = 32 * 1024 * 1024
if (upload.extraPeakBytes > budget) {
  console.error(`FAIL: upload raised peak RSS by ${mib(upload.extraPeakBytes)} (budget ${mib(budget)})`)
  process.exit(1)
}
