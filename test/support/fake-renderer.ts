/**
 * A stand-in for the preview renderer process, for testing the pool that runs renderers: it speaks the
 * same IPC protocol and misbehaves as the job's output name asks:
 *   hang-…    never answers (spins on the CPU)
 *   sleep-…   never answers (and uses no CPU, like a renderer starved by a busy machine)
 *   hog-…     allocates memory until it is stopped
 *   crash-…   exits in the middle of the job
 *   otherwise writes "rendered by <pid>" to the output and answers ok, with 3 pages.
 * A `pages` job (no output) misbehaves as the PDF's name asks.
 * Started with the argument `no-start`, it prints a message and exits before saying it is ready.
 */
import { writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { RenderJob } from '../../src/core/previews/renderer-protocol'

if (process.argv[2] === 'no-start') {
  console.error('cannot load the renderer: libvips is missing')
  process.exit(3)
}
process.on('disconnect', () => process.exit(0))
process.on('message', (job: RenderJob) => {
  const mode = basename(job.outPath ?? job.pdfPath).split('-')[0]
  if (mode === 'hang') {
    for (;;);
  } else if (mode === 'sleep') {
    setInterval(() => {}, 60_000)
  } else if (mode === 'hog') {
    const kept: Uint8Array[] = []
    setInterval(() => kept.push(new Uint8Array(16 * 1024 * 1024).fill(1)), 5)
  } else if (mode === 'crash') {
    process.exit(7)
  } else {
    if (job.outPath) writeFileSync(job.outPath, `rendered by ${process.pid}`)
    process.send!({ id: job.id, ok: true, pages: 3 })
  }
})
process.send!({ ready: true })
