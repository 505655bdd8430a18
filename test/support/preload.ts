// Runs before any test file (bunfig.toml): the share routes serve the built viewer, so build it once if a
// plain `bun test` runs on a fresh clone. `bun run test` has already built it (with the binary).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { buildViewer, VIEWER_DIST } from '../../scripts/build-viewer'

if (!existsSync(join(VIEWER_DIST, 'manifest.json'))) await buildViewer()
