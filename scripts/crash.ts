/**
 * `bun run test:crash [rounds] [seed]`: the long crash loop (default 300 rounds) against the compiled binary.
 * Prints a line per 25 rounds and the totals; exits 1 on any violation, listing them.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crashLoop } from './support/crash-loop'

const rounds = Number(process.argv[2] ?? 300)
const seed = Number(process.argv[3] ?? Date.now() % 100_000)
const binary = join(import.meta.dir, '..', 'dist', 'pdfshare')
if (!existsSync(binary)) {
  console.error('dist/pdfshare is missing: run bun run build first')
  process.exit(2)
}
const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-crash-long-'))
const started = performance.now()
try {
  const stats = await crashLoop({
    dataDir,
    rounds,
    seed,
    program: [binary],
    log: (line) => {
      if (/^round \d*(25|50|75|00):/.test(line)) console.log(line)
    },
  })
  const minutes = ((performance.now() - started) / 60_000).toFixed(1)
  console.log(
    `seed ${seed}: ${stats.rounds} rounds in ${minutes} min, ${stats.acknowledgedWrites} acknowledged writes, ${stats.checkedFiles} file checks, ${stats.unacknowledged} interrupted requests, ${stats.violations.length} violations`,
  )
  for (const violation of stats.violations) console.log(`VIOLATION ${violation}`)
  process.exitCode = stats.violations.length === 0 ? 0 : 1
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
