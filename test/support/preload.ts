// Runs before any test file (bunfig.toml). (The per-test timeout is given on the command line by
// scripts/test.ts: `bun test --timeout=60000`.)
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { buildViewer, VIEWER_DIST } from '../../scripts/build-viewer'

// The share routes serve the built viewer: build it once when a plain `bun test` runs on a fresh clone.
// (`bun run test` has already built it, together with the binary.)
if (!existsSync(join(VIEWER_DIST, 'manifest.json'))) await buildViewer()
