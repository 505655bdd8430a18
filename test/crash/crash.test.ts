import { expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../../scripts/support/process'
import { crashLoop } from '../../scripts/support/crash-loop'

// The short crash loop that runs with every test run; `bun run test:crash` runs hundreds of rounds.
test('SIGKILL at random moments during concurrent writes: no acknowledged write is lost, nothing half-written is served', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-crash-'))
  const binary = join(ROOT, 'dist', 'pdfshare')
  try {
    const seed = Number(process.env.PDFSHARE_CRASH_SEED ?? Date.now() % 100_000)
    const stats = await crashLoop({ dataDir, rounds: 12, seed, program: existsSync(binary) ? [binary] : undefined })
    console.log(
      `crash loop (seed ${seed}): ${stats.rounds} rounds, ${stats.acknowledgedWrites} acknowledged writes, ${stats.checkedFiles} file checks, ${stats.unacknowledged} interrupted requests`,
    )
    expect(stats.violations).toEqual([])
    expect(stats.acknowledgedWrites).toBeGreaterThan(10)
    expect(stats.unacknowledged).toBeGreaterThan(0) // kills did land mid-request
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  // A bound for a hang, not for speed: twelve starts of the binary took past three minutes beside a machine
  // loaded 13 times over.
}, 600_000)
