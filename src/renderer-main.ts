#!/usr/bin/env bun
import './owner-only-umask' // first, as in main.ts: a renderer writes page images
import { runPreviewRenderer } from './core/previews/renderer-process'

// The preview renderer's entry point when pdfshare runs from source (`bun run src/main.ts`, the tests). It loads
// only the renderer's modules: through main.ts every renderer start loaded the CLI and the server as well,
// measured at 1.36 s of CPU against 0.11 s, paid once per renderer process and, in the test suite, hundreds of
// times. The binary keeps one entry point (main.ts): there its modules are bytecode already, and a second entry
// would add a second copy of the renderer's code to the binary.
await runPreviewRenderer()
