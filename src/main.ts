#!/usr/bin/env bun
import './owner-only-umask' // first: before anything can create a file
import { runCli } from './cli'
import { processIo } from './cli/io'
import { runPreviewRenderer } from './core/previews/renderer-process'
import { RENDERER_ARGUMENT } from './core/previews/renderer-protocol'
import { redactPasswords } from './lib/redact'

// The entry point of the binary and of `bun run src/main.ts`: argv → command (default: serve).
// The only place that reads settings from process.env.
if (process.argv[2] === RENDERER_ARGUMENT) {
  // The server starts its preview renderers as `pdfshare __preview-renderer` (see core/previews/renderer-pool.ts).
  // Imports stay static: importing the CLI lazily, to spare a renderer the server's modules, cost the server
  // 2 MiB of idle memory in the binary (lazily imported code is not part of its bytecode).
  await runPreviewRenderer()
} else {
  try {
    process.exitCode = await runCli(process.argv.slice(2), process.env, processIo)
  } catch (error) {
    console.error('pdfshare: unexpected error:', redactPasswords(error instanceof Error ? error.message : String(error)))
    process.exitCode = 1
  }
}
