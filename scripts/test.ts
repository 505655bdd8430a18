/**
 * The whole test suite, as the README and CI run it: type-check (which also enforces the expect-type
 * assertions), check formatting and lint with Biome, build the single binary (its smoke and browser tests
 * run it), run `bun test` with its normal output, then print one plain summary line from the JUnit report:
 * "N passed, M failed" (a failed type-check, lint or build counts as one failure). Exits non-zero when
 * anything failed or nothing ran.
 *
 * Extra arguments go to `bun test` (e.g. `bun run test test/api`).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
const report = join(root, 'test-output', 'junit.xml')
mkdirSync(join(root, 'test-output'), { recursive: true })
rmSync(report, { force: true })

const step = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: root, stdout: 'inherit', stderr: 'inherit', env: process.env }).exitCode

let stepFailures = 0
console.log('type-checking…')
if (step(['bun', 'run', 'typecheck']) !== 0) stepFailures++
console.log('formatting and lint (biome)…')
if (step(['bun', 'run', 'lint']) !== 0) stepFailures++
if (!process.env.PDFSHARE_SKIP_BUILD) {
  console.log('building dist/pdfshare for the binary tests…')
  if (step(['bun', 'run', 'build']) !== 0) {
    console.log(`0 passed, ${stepFailures + 1} failed`)
    process.exit(1)
  }
}

// Tests spawn servers and browsers and write 100 MiB files: 5 s per test is too tight on a 2-core CI machine.
const exitCode = step(['bun', 'test', '--timeout=60000', '--reporter=junit', `--reporter-outfile=${report}`, ...process.argv.slice(2)])

let tests = 0
let failures = 0
let skipped = 0
try {
  const head = /<testsuites\b[^>]*>/.exec(readFileSync(report, 'utf8'))?.[0] ?? ''
  const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? 0)
  tests = attr('tests')
  failures = attr('failures')
  skipped = attr('skipped')
} catch {
  // no report: bun test could not even start
}
const passed = tests - failures - skipped
// A load error in a test file fails the run without being a test case; count it rather than hide it.
const outsideTests = exitCode !== 0 && failures === 0 ? 1 : 0
const failed = failures + outsideTests + stepFailures
if (skipped > 0) console.log(`${skipped} skipped`)
console.log(`${Math.max(0, passed)} passed, ${failed} failed`)
process.exit(failed > 0 || passed <= 0 ? 1 : 0)
