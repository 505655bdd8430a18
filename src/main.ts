#!/usr/bin/env bun
import './owner-only-umask' // first: before anything can create a file
import { RENDERER_ARGUMENT } from './core/previews/renderer-protocol'

// The entry point of the binary and of `bun run src/main.ts`: argv → command (default: serve).
// The only place that reads settings from process.env.
if (process.argv[2] === RENDERER_ARGUMENT) {
  // The server starts its preview renderers as `pdfshare __preview-renderer` (see core/previews/renderer-pool.ts).
  const { runPreviewRenderer } = await import('./core/previews/renderer-process')
  await runPreviewRenderer()
} else {
  try {
    // Imported here, so a renderer process never loads the server (and its database driver).
    const [{ runCli }, { processIo }] = await Promise.all([import('./cli'), import('./cli/io')])
    process.exitCode = await runCli(process.argv.slice(2), process.env, processIo)
  } catch (error) {
    console.error('pdfshare: unexpected error:', error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
