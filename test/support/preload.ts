// Runs before any test file (bunfig.toml). (The per-test timeout is given on the command line by
// scripts/test.ts: `bun test --timeout=180000`.)
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll } from 'bun:test'
import { buildViewer, VIEWER_DIST } from '../../scripts/build-viewer'
import { descendantsOf, describeProcess, killAll } from '../../scripts/support/test-run'
import { isWatchdog } from '../../scripts/support/watchdog'

// The share routes serve the built viewer: build it once when a plain `bun test` runs on a fresh clone.
// (`bun run test` has already built it, together with the binary.)
if (!existsSync(join(VIEWER_DIST, 'manifest.json'))) await buildViewer()

// Nothing a test file started outlives it, even when it failed before its own clean-up: under the test command
// (`bun test --parallel`, which isolates each file) this runs after each file's own afterAll, and whatever that
// file started is still running under this test process then is named and killed. (A plain `bun test` runs it
// once, at the end.) Watchdogs are left alone: they end with this process, or when their charge is stopped.
afterAll(() => {
  const all = descendantsOf(process.pid)
  const watching = new Set(all.filter((leftover) => isWatchdog(leftover.command)).map((watchdog) => watchdog.pid))
  const left = all.filter((leftover) => !watching.has(leftover.pid) && !watching.has(leftover.ppid))
  if (left.length === 0) return
  console.error(`${Bun.main}: ${left.length} process(es) it started were still running; killed:`)
  for (const leftover of left) console.error(`  ${describeProcess(leftover)}`)
  killAll(left)
})
