/**
 * The whole test suite, as the README and CI run it: type-check (which also enforces the expect-type
 * assertions), check formatting and lint with Biome, build the single binary (its smoke and browser tests
 * run it) and the linux-arm64 one (run under qemu), run `bun test` with its normal output, then print one plain summary line from the JUnit report:
 * "N passed, M failed" (a failed type-check, lint or build counts as one failure). Exits non-zero when
 * anything failed or nothing ran.
 *
 * Without arguments, the API and share-page suites then run a second time on PostgreSQL + S3, and a third time
 * through HAProxy in front of three server processes on PostgreSQL + S3, and the line counts all runs. Extra arguments go to `bun test` (e.g. `bun run test test/api`), with no second run.
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
  // The arm64 binary for its run under qemu (test/binary/arm64.test.ts); a failed cross-build fails that test.
  console.log('building dist/pdfshare-linux-arm64…')
  if (step(['bun', 'run', 'build:arm64']) !== 0) stepFailures++
}

/** One `bun test` run; its counts from its JUnit report. A load error outside any test counts as one failure. */
function runTests(args: string[], outfile: string, env: Record<string, string> = {}) {
  rmSync(outfile, { force: true })
  // Tests spawn servers and browsers and write 100 MiB files: 5 s per test is too tight on a 2-core CI machine.
  const exitCode = Bun.spawnSync(['bun', 'test', '--timeout=60000', '--reporter=junit', `--reporter-outfile=${outfile}`, ...args], {
    cwd: root,
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, ...env },
  }).exitCode
  let tests = 0
  let failures = 0
  let skipped = 0
  try {
    const head = /<testsuites\b[^>]*>/.exec(readFileSync(outfile, 'utf8'))?.[0] ?? ''
    const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? 0)
    tests = attr('tests')
    failures = attr('failures')
    skipped = attr('skipped')
  } catch {
    // no report: bun test could not even start
  }
  return { passed: tests - failures - skipped, failed: failures + (exitCode !== 0 && failures === 0 ? 1 : 0), skipped }
}

const whole = process.argv.length <= 2
const testFiles = (pattern: string) => [...new Bun.Glob(pattern).scanSync({ cwd: root })].sort()
// Files about several instances of one install on PostgreSQL (*.postgres.test.ts) run in the second pass only.
const firstPass = whole ? testFiles('test/**/*.test.ts').filter((path) => !path.endsWith('.postgres.test.ts')) : process.argv.slice(2)
const runs = [runTests(firstPass, report)]
if (whole) {
  // The API and share-page suites once more on the engines of a scaled-out install: PostgreSQL and an S3
  // bucket (test/support/backend.ts). Files about the embedded database itself are named *.embedded.test.ts.
  const suites = testFiles('test/{api,share}/*.test.ts').filter((path) => !path.endsWith('.embedded.test.ts'))
  console.log(`the API and share-page suites on PostgreSQL + S3 (${suites.length} files)…`)
  runs.push(runTests(suites, join(root, 'test-output', 'junit-postgres-s3.xml'), { PDFSHARE_TEST_BACKEND: 'postgres-s3' }))
  // And a third time through HAProxy in front of three server processes on one database and bucket: every
  // `server.call` is real HTTP through the balancer (test/support/harness.ts), minus these files:
  const notBalanced: Record<string, string> = {
    'test/api/webhooks.test.ts':
      'its app runs on a pinned clock and its own dispatchers (timeouts, injected faults), which the instances would race',
    'test/api/mail.test.ts': "its mail worker runs on a clock set ahead, which the instances' own mail workers would race",
    'test/api/notifications.test.ts':
      "its notifier runs on a pinned clock (for the hours of its digests), which the instances' own notifiers would race",
  }
  for (const path of Object.keys(notBalanced)) {
    if (suites.includes(path)) continue
    console.log(`scripts/test.ts leaves out ${path} of the balanced pass, but there is no such suite file`)
    stepFailures++
  }
  const balanced = suites.filter((path) => !(path in notBalanced))
  console.log(`the API and share-page suites through HAProxy in front of 3 instances (${balanced.length} files; not run this way:)`)
  for (const [path, reason] of Object.entries(notBalanced)) console.log(`  ${path}: ${reason}`)
  runs.push(runTests(balanced, join(root, 'test-output', 'junit-postgres-s3-lb.xml'), { PDFSHARE_TEST_BACKEND: 'postgres-s3-lb' }))
}
const passed = runs.reduce((sum, run) => sum + run.passed, 0)
const skipped = runs.reduce((sum, run) => sum + run.skipped, 0)
const failed = runs.reduce((sum, run) => sum + run.failed, 0) + stepFailures
if (skipped > 0) console.log(`${skipped} skipped`)
console.log(`${Math.max(0, passed)} passed, ${failed} failed`)
process.exit(failed > 0 || passed <= 0 ? 1 : 0)
