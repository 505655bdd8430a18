// Runs before any test file (bunfig.toml).
import { setDefaultTimeout } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { buildViewer, VIEWER_DIST } from '../../scripts/build-viewer'

// Tests spawn servers and browsers and write 100 MiB files; 5 s is too tight on a 2-core CI machine.
setDefaultTimeout(60_000)

// The share routes serve the built viewer: build it once when a plain `bun test` runs on a fresh clone.
// (`bun run test` has already built it, together with the binary.)
if (!existsSync(join(VIEWER_DIST, 'manifest.json'))) await buildViewer()
