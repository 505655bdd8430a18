/**
 * `bun scripts/corpus/cards.ts [--out FILE] DIR…`: how pdfshare's renderer draws every PDF of some folders —
 * link cards drawn, all white or refused; pages 2 and 3 as page images; white cards where pdf.js finds text on
 * page 1; PDFs that PDFium refuses but pdf.js opens — with render times. Each PDF is checked in its own process
 * (card-check.ts) with a 20 s limit, one at a time. Writes every result to FILE (default
 * test-output/cards.json) as it goes, so two runs can be compared. Corpora are not part of the repository: fetch them
 * yourself (e.g. pdf.js's test/pdfs, qpdf's test files, py-pdf's sample-files).
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const args = process.argv.slice(2)
const outAt = args.indexOf('--out')
const out = outAt >= 0 ? args.splice(outAt, 2)[1]! : join(import.meta.dir, '..', '..', 'test-output', 'cards.json')
const files = args.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .map((name) => join(dir, name)),
)
type Check = { card: string; cardMs: number; pages: Record<number, string>; pageMs: number[]; text: number | string }
const results: Record<string, Check | 'timed out'> = {}
const started = performance.now()
const writeResults = (summary?: unknown) => {
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, JSON.stringify({ summary, results }, null, 1))
}
for (const file of files) {
  if (statSync(file).size === 0) continue
  const child = Bun.spawn(['timeout', '20', 'bun', join(import.meta.dir, 'card-check.ts'), file], { stdout: 'pipe', stderr: 'ignore' })
  const line = (await new Response(child.stdout).text()).trim().split('\n').pop() ?? ''
  results[basename(file)] = (await child.exited) === 0 && line.startsWith('{') ? (JSON.parse(line) as Check) : 'timed out'
  writeResults() // as it goes: a run cut short still tells what it saw
}

const checks = Object.entries(results).flatMap(([name, check]) => (check === 'timed out' ? [] : [{ name, ...check }]))
const hasText = (check: Check) => typeof check.text === 'number' && check.text > 0
const opensInPdfjs = (check: Check) => typeof check.text === 'number'
const pageStates = checks.flatMap((check) => Object.values(check.pages))
const percentile = (values: number[], p: number) => values.sort((a, b) => a - b)[Math.floor(values.length * p)] ?? 0
const cardMs = checks.map((check) => check.cardMs)
const pageMs = checks.flatMap((check) => check.pageMs)
const summary = {
  files: Object.keys(results).length,
  timedOut: Object.values(results).filter((check) => check === 'timed out').length,
  cards: {
    drawn: checks.filter((check) => check.card === 'drawn').length,
    white: checks.filter((check) => check.card === 'white').length,
    placeholder: checks.filter((check) => check.card.startsWith('failed')).length,
    whiteWherePdfjsFindsText: checks.filter((check) => check.card === 'white' && hasText(check)).map((check) => check.name),
    placeholderWherePdfjsOpens: checks.filter((check) => check.card.startsWith('failed') && opensInPdfjs(check)).map((check) => check.name),
    p50Ms: percentile(cardMs, 0.5),
    p90Ms: percentile(cardMs, 0.9),
    maxMs: percentile(cardMs, 1 - Number.EPSILON),
  },
  pagesTwoAndThree: {
    drawn: pageStates.filter((state) => state === 'drawn').length,
    white: pageStates.filter((state) => state === 'white').length,
    failed: pageStates.filter((state) => state.startsWith('failed')).length,
    p50Ms: percentile(pageMs, 0.5),
    p90Ms: percentile(pageMs, 0.9),
  },
  seconds: Math.round((performance.now() - started) / 1000),
}
writeResults(summary)
console.log(JSON.stringify(summary, null, 2))
