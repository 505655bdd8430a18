/**
 * The whole test suite, as the README and CI run it: type-check (which also enforces the expect-type
 * assertions), check formatting and lint with Biome, build the single binary (its smoke and browser tests
 * run it) and the linux-arm64 one (run under qemu), run `bun test` with its normal output, then print one plain
 * summary line from the JUnit reports: "N passed, M failed" (a failed type-check, lint or build, and a process
 * of the run left behind, count as one failure each). Exits non-zero when anything failed or nothing ran.
 *
 * Without arguments, three passes: every test file on the embedded engines; then the files of test/api and
 * test/share that are about the backend (below) on PostgreSQL + S3; then those about several instances once
 * more, through HAProxy in front of three server processes on PostgreSQL + S3. Extra arguments go to `bun test` (e.g. `bun run test
 * test/api`), with no second or third pass.
 *
 * How it stays fast on a 2-core machine: test files run side by side in `bun test --parallel` worker processes
 * (most of a test's time is spent waiting on servers, browsers and child processes, not on the CPU), the
 * slowest first (test/timings/*.json; `PDFSHARE_UPDATE_TIMINGS=1 bun run test` writes them anew), and one
 * PostgreSQL cluster and one Ceph gateway, started here while the type-check runs, serve every file and every
 * pass (PDFSHARE_TEST_POSTGRES, PDFSHARE_TEST_CEPH; each test app still gets a database and a bucket of its
 * own). PDFSHARE_TEST_WORKERS sets the number of workers.
 *
 * Nothing outlives the run: every process it starts carries TEST_RUN_ID=<this run> in its environment
 * (scripts/support/test-run.ts); after each test file its leftovers are killed (test/support/preload.ts), and at
 * the end any process of the run still alive is named, killed and counted as a failure.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { gatewayInfo, SHARED_CEPH, startCeph } from './support/ceph'
import { SHARED_POSTGRES, startCluster } from './support/postgres'
import { describeProcess, killAll, processesOfRun, TEST_RUN } from './support/test-run'

const root = join(import.meta.dir, '..')
const output = join(root, 'test-output')
mkdirSync(output, { recursive: true })
const runStarted = performance.now()
const minutes = (since: number) => `${((performance.now() - since) / 60_000).toFixed(1)} min`

const runId = `${Date.now().toString(36)}-${process.pid}`
process.env[TEST_RUN] = runId // inherited by every process the run starts

/** One step of the run, its output shown as it comes; its exit code. */
const step = async (cmd: string[]) => Bun.spawn(cmd, { cwd: root, stdout: 'inherit', stderr: 'inherit', env: process.env }).exited

/**
 * The shared PostgreSQL cluster and Ceph gateway, started in the background. One that cannot start is left out:
 * the tests that need it then start their own and fail with the same message, naming the package to install.
 */
async function startServices() {
  const [postgres, ceph] = await Promise.allSettled([Promise.resolve().then(startCluster), startCeph()])
  if (postgres.status === 'fulfilled') process.env[SHARED_POSTGRES] = postgres.value.url
  else console.log(`no shared PostgreSQL cluster: ${postgres.reason}`)
  if (ceph.status === 'fulfilled') process.env[SHARED_CEPH] = JSON.stringify(gatewayInfo(ceph.value))
  else console.log(`no shared Ceph gateway: ${ceph.reason}`)
  return async () => {
    if (postgres.status === 'fulfilled') postgres.value.stop()
    if (ceph.status === 'fulfilled') await ceph.value.stop()
  }
}
const services = startServices()

let stepFailures = 0
console.log('type-checking…')
if ((await step(['bun', 'run', 'typecheck'])) !== 0) stepFailures++
console.log('formatting and lint (biome)…')
if ((await step(['bun', 'run', 'lint'])) !== 0) stepFailures++
if (!process.env.PDFSHARE_SKIP_BUILD) {
  console.log('building dist/pdfshare for the binary tests…')
  if ((await step(['bun', 'run', 'build'])) !== 0) {
    await (await services)()
    console.log(`0 passed, ${stepFailures + 1} failed`)
    process.exit(1)
  }
  // Every pdfshare the tests start runs as this binary (scripts/support/process.ts PDFSHARE_PROGRAM).
  process.env.PDFSHARE_TEST_PROGRAM = join(root, 'dist', 'pdfshare')
  // The arm64 binary for its run under qemu (test/binary/arm64.test.ts); a failed cross-build fails that test.
  console.log('building dist/pdfshare-linux-arm64…')
  if ((await step(['bun', 'run', 'build:arm64'])) !== 0) stepFailures++
}
const stopServices = await services
console.log(`(type-check, lint, builds and the shared PostgreSQL and Ceph: ${minutes(runStarted)})`)

/** Test files run side by side: a measured choice for a 2-core machine (docs/development.md). */
const WORKERS = Number(process.env.PDFSHARE_TEST_WORKERS || 4)

/** One `bun test` pass; its counts from its JUnit report. A load error outside any test counts as one failure. */
async function runTests(name: string, files: string[], env: Record<string, string> = {}) {
  const outfile = join(output, `junit${name === 'embedded' ? '' : `-${name}`}.xml`)
  rmSync(outfile, { force: true })
  const timings = join(root, 'test', 'timings', `${name}.json`)
  mkdirSync(join(root, 'test', 'timings'), { recursive: true })
  const started = performance.now()
  const exitCode = await Bun.spawn(
    [
      'bun',
      'test',
      // Tests spawn servers and browsers and write 100 MiB files, side by side on a 2-core machine that may be busy
      // with more: a test gets 3 minutes (a bound for one that hangs, not a measure of speed).
      '--timeout=180000',
      `--parallel=${WORKERS}`,
      // A worker whose parent is gone stops, and takes whatever it started with it.
      '--no-orphans',
      ...(process.env.PDFSHARE_UPDATE_TIMINGS
        ? [`--timings=${timings}`, '--update-timings']
        : existsSync(timings)
          ? [`--timings=${timings}`]
          : []),
      '--reporter=junit',
      `--reporter-outfile=${outfile}`,
      ...files,
    ],
    { cwd: root, stdout: 'inherit', stderr: 'inherit', env: { ...process.env, ...env } },
  ).exited
  let tests = 0
  let failures = 0
  let skipped = 0
  let failedTests: string[] = []
  try {
    const report = readFileSync(outfile, 'utf8')
    const head = /<testsuites\b[^>]*>/.exec(report)?.[0] ?? ''
    const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? 0)
    tests = attr('tests')
    failures = attr('failures')
    skipped = attr('skipped')
    failedTests = failedTestsOf(report)
  } catch {
    // no report: bun test could not even start
  }
  const run = {
    name,
    passed: tests - failures - skipped,
    failed: failures + (exitCode !== 0 && failures === 0 ? 1 : 0),
    skipped,
    failedTests,
  }
  console.log(`pass ${name}: ${files.length} files in ${minutes(started)}: ${run.passed} passed, ${run.failed} failed`)
  return run
}

/** Lines of each failure's message and stack repeated at the end. */
const FAILURE_LINES = 8

/**
 * The failed tests of a JUnit report as `file: group > name` and the first lines of why, repeated at the end of
 * the run: CI keeps only the tail of the output, and a failure of the first pass would otherwise be out of sight.
 */
function failedTestsOf(report: string): string[] {
  const fromXml = (text: string) =>
    text
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
      .replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!)
  const failed: string[] = []
  for (const match of report.matchAll(/<testcase\b([^>]*[^/])>([\s\S]*?)<\/testcase>/g)) {
    const failure = /<failure\b[^>]*>([\s\S]*?)<\/failure>/.exec(match[2]!)
    if (!failure) continue
    const attr = (name: string) => fromXml(new RegExp(`\\b${name}="([^"]*)"`).exec(match[1]!)?.[1] ?? '')
    const group = attr('classname')
    // The first lines of what failed, so a failure that shows only in CI's tail can be understood from it.
    const why = fromXml(failure[1]!)
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, FAILURE_LINES)
      .map((line) => `      ${line.slice(0, 240)}`)
    failed.push([`${attr('file')}: ${group ? `${group} > ` : ''}${attr('name')}`, ...why].join('\n'))
  }
  return failed
}

const whole = process.argv.length <= 2
const testFiles = (pattern: string) => [...new Bun.Glob(pattern).scanSync({ cwd: root })].sort()
/** A list below that names a file that is not there is a failure of the run. */
const checkListed = (list: Record<string, string>, among: string[], what: string) => {
  for (const path of Object.keys(list)) {
    if (among.includes(path)) continue
    console.log(`scripts/test.ts ${what} ${path}, but there is no such suite file`)
    stepFailures++
  }
}

// Files about several instances of one install on PostgreSQL (*.postgres.test.ts) run in the second pass only.
const firstPass = whole ? testFiles('test/**/*.test.ts').filter((path) => !path.endsWith('.postgres.test.ts')) : process.argv.slice(2)
const runs = [await runTests('embedded', firstPass)]
if (whole) {
  // The API and share-page suites once more on the engines of a scaled-out install: PostgreSQL and an S3
  // bucket (test/support/backend.ts), those that are about the backend: what they test runs database queries,
  // keeps blobs, or must hold across several instances. Files about the embedded database itself are named
  // *.embedded.test.ts. These are not about the backend (they run in the first pass only):
  const notAboutBackend: Record<string, string> = {
    'test/api/body-schemas.test.ts': 'request bodies against the schemas they are checked with, before any query',
    'test/api/dashboard-page.test.ts': "the dashboard's HTML page and its assets, served from the build",
    'test/api/envelope.test.ts': 'the response envelope, request ids, access-log lines and security headers of the HTTP layer',
    'test/api/error-codes.test.ts': "docs/api.md's table of error codes against the error mapping",
    'test/api/openapi.test.ts': 'the OpenAPI document, made from the route schemas',
    'test/api/scopes.test.ts': "the scope each route needs, checked by the auth guard on the token's scopes",
    'test/api/notification-languages.test.ts': "the language of the owners' notification mails, chosen from the instance's settings",
    'test/share/drawn-links.test.ts':
      "a PDF's links and outline as the renderers read them (from a local file on every backend); their gates are page-images'",
    'test/share/embedding.test.ts':
      "frame-ancestors and cookie attributes of the share pages (a framed view's counting is views.test.ts's)",
    'test/share/gate-forms-cross-site.test.ts': "the Sec-Fetch-Site and Origin headers of a gate's form post, checked before any query",
    'test/share/mail-languages.test.ts': 'the language of the code mails, chosen as the pages choose theirs',
    'test/share/hostile-previews.test.ts':
      'the renderer processes and their limits (a render reads the PDF from a local file on every backend)',
    'test/share/preview-answers.test.ts': "what a preview request is answered while renderers are busy, and their processes' end",
    'test/share/renderer-pool.test.ts': 'the renderer pool alone, without an app',
    'test/share/request-values.test.ts': "how a share route reads its request's cookies, address and params, once each",
  }
  const suites = testFiles('test/{api,share}/*.test.ts').filter((path) => !path.endsWith('.embedded.test.ts'))
  checkListed(notAboutBackend, suites, 'keeps out of the PostgreSQL + S3 passes')
  const aboutBackend = suites.filter((path) => !(path in notAboutBackend))
  console.log(`the API and share-page suites about the backend on PostgreSQL + S3 (${aboutBackend.length} files; not:)`)
  for (const [path, reason] of Object.entries(notAboutBackend)) console.log(`  ${path}: ${reason}`)
  runs.push(await runTests('postgres-s3', aboutBackend, { PDFSHARE_TEST_BACKEND: 'postgres-s3' }))
  // And a third time, through HAProxy in front of three server processes on one database and bucket (every
  // `server.call` is real HTTP through the balancer, test/support/harness.ts): the files about what must hold
  // across several instances. What one request does is the second pass's, on the same engines; this pass is
  // for what one instance keeps or does and another must see, so it runs only these. A rule decided inside one
  // SQL statement (a quota, a view limit, a one-time code's reuse) holds alike whichever instance sends it: the
  // second pass tests it on PostgreSQL. The *.postgres.test.ts files start several instances of their own (the
  // second pass runs them): behind the balancer they would be six processes standing in for two. Page 1 drawn
  // ahead by one instance and served by another is test/share/first-page.test.ts's test of two instances of one
  // install, which the second pass runs on PostgreSQL and a bucket: through the balancer the file's other tests,
  // each about one instance drawing, ran again for most of the pass's time.
  const aboutSeveralInstances: Record<string, string> = {
    'test/api/auth-cache.test.ts': 'a session or token revoked through one instance is refused by every other at once',
    'test/api/idempotency.test.ts': 'a retry that reaches another instance gets the first answer',
    'test/api/upload.test.ts': 'uploads streamed through a real proxy',
    'test/api/passkeys.test.ts': 'a challenge one instance made is checked by another',
    'test/api/sso.test.ts': 'a sign-in started on one instance ends on another',
    'test/api/outbox-pruning.test.ts': 'the instances prune the same tables at once',
    'test/api/teams.test.ts': 'a member removed or lowered through one instance is refused by every other at once, team tokens included',
    'test/api/requests-senders.test.ts': "a file request's maxFiles and rate limits hold when its senders reach several instances",
    'test/share/views.test.ts': 'a view counted once whichever instance answers',
    'test/share/hot-paths.test.ts': 'cached share lookups follow a change made through another instance',
    'test/share/reader-gates.test.ts': "a reader's code or acceptance on one instance opens the link on another",
    'test/share/client-ip.test.ts': "the reader's address through a real proxy",
    'test/share/rooms.test.ts':
      "a document taken out of a room through one instance is closed on the others at once; a room's gate passed on one opens its documents on another",
  }
  checkListed(aboutSeveralInstances, aboutBackend, 'runs through the balancer')
  const balanced = aboutBackend.filter((path) => path in aboutSeveralInstances)
  console.log(`the suites about several instances, through HAProxy in front of 3 of them (${balanced.length} files):`)
  for (const [path, reason] of Object.entries(aboutSeveralInstances)) console.log(`  ${path}: ${reason}`)
  runs.push(await runTests('postgres-s3-lb', balanced, { PDFSHARE_TEST_BACKEND: 'postgres-s3-lb' }))
}
await stopServices()

// Every process of the run must be gone. Watchdogs of test processes that just ended need a moment to see that.
let left = processesOfRun(runId)
for (let waited = 0; left.length > 0 && waited < 10_000; waited += 250) {
  await Bun.sleep(250)
  left = processesOfRun(runId)
}
if (left.length > 0) {
  console.log(`${left.length} process(es) of this run were still running at its end (killed now):`)
  for (const leftover of left) console.log(`  ${describeProcess(leftover)}`)
  killAll(left)
  stepFailures++
}

for (const run of runs) {
  console.log(`pass ${run.name}: ${run.passed} passed, ${run.failed} failed`)
  for (const test of run.failedTests) console.log(`  failed: ${test}`)
}
console.log(`the whole run: ${minutes(runStarted)}`)
const passed = runs.reduce((sum, run) => sum + run.passed, 0)
const skipped = runs.reduce((sum, run) => sum + run.skipped, 0)
const failed = runs.reduce((sum, run) => sum + run.failed, 0) + stepFailures
if (skipped > 0) console.log(`${skipped} skipped`)
console.log(`${Math.max(0, passed)} passed, ${failed} failed`)
process.exit(failed > 0 || passed <= 0 ? 1 : 0)
