#!/usr/bin/env bun
import './owner-only-umask' // first: before anything can create a file
import { runCli } from './cli'
import { processIo } from './cli/io'

// The entry point of the binary and of `bun run src/main.ts`: argv → command (default: serve).
// The only place that reads process.env.
try {
  process.exitCode = await runCli(process.argv.slice(2), process.env, processIo)
} catch (error) {
  console.error('pdfshare: unexpected error:', error instanceof Error ? error.message : error)
  process.exitCode = 1
}
