#!/usr/bin/env bun
import { runCli } from './cli'
import { processIo } from './cli/io'
import { RENDERER_ARGUMENT } from './modules/share/previews/renderer-protocol'

// The entry point of the binary and of `bun run src/main.ts`: argv → command (default: serve).
// The only place that reads process.env.
if (process.argv[2] === RENDERER_ARGUMENT) {
  // The server starts its preview renderers as `pdfshare __preview-renderer` (see previews/renderer-pool.ts).
  const { runPreviewRenderer } = await import('./modules/share/previews/renderer-process')
  await runPreviewRenderer()
} else {
  try {
    process.exitCode = await runCli(process.argv.slice(2), process.env, processIo)
  } catch (error) {
    console.error('pdfshare: unexpected error:', error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
