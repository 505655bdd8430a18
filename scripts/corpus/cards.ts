/**
 * `bun scripts/corpus/cards.ts DIR…`: how many PDFs get an all-white link card, now and as rendered before
 * cards were cropped to their content (the top of the page, no form fields). Each PDF is checked in its own process with a 20 s limit.
 * Corpora are not part of the repository: fetch them yourself (e.g. pdf.js's test/pdfs, qpdf's test files,
 * py-pdf's sample-files).
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const files = process.argv.slice(2).flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .map((name) => join(dir, name)),
)
const tally = {
  files: files.length,
  whiteNow: 0,
  whiteBefore: 0,
  failedNow: 0,
  failedBefore: 0,
  timedOut: 0,
  fixed: [] as string[],
  broken: [] as string[],
}
for (const file of files) {
  if (statSync(file).size === 0) continue
  const child = Bun.spawn(['timeout', '20', 'bun', join(import.meta.dir, 'card-check.ts'), file], { stdout: 'pipe', stderr: 'ignore' })
  const line = (await new Response(child.stdout).text()).trim().split('\n').pop() ?? ''
  if ((await child.exited) !== 0 || !line.startsWith('{')) {
    tally.timedOut++
    continue
  }
  const { now, before } = JSON.parse(line) as { now: boolean | string; before: boolean | string }
  if (now === true) tally.whiteNow++
  if (before === true) tally.whiteBefore++
  if (typeof now === 'string') tally.failedNow++
  if (typeof before === 'string') tally.failedBefore++
  if (before === true && now === false) tally.fixed.push(file)
  if (before === false && now === true) tally.broken.push(file)
}
console.log(JSON.stringify({ ...tally, fixed: tally.fixed.length, broken: tally.broken }, null, 2))
console.log('now shows content where the card was white before:', tally.fixed.map((f) => f.split('/').pop()).join(', '))
