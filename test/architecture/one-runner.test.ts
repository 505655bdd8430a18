import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// Every loop beside the server is a job of the one runner (src/core/jobs): a file of src/ that starts a timer that
// repeats is the runner's pump, or one of the timers below that live only as long as one request or one render.
const root = join(import.meta.dir, '..', '..')
const sources = [...new Bun.Glob('src/**/*.ts').scanSync({ cwd: root })].sort()

/** The repeating timers that are not background work, each with why. */
const ALLOWED: Record<string, string> = {
  'src/core/jobs/pump.ts': 'the runner itself: every job’s poll',
  'src/http/idempotency.ts': 'renews the claim of one request’s Idempotency-Key while that request runs',
  'src/core/limits/upload-slots.ts': 'renews one upload’s slot while that upload streams',
  'src/core/previews/renderer-pool.ts': 'watches one render’s memory and CPU time while that render runs',
  'src/core/previews/renderer-process.ts': 'a renderer’s own watch for its server’s death (it runs in the renderer, not the server)',
}

/** The files whose code starts a repeating timer (setInterval). */
function repeatingTimers(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([, code]) => /\bsetInterval\s*\(/.test(code))
    .map(([path]) => path)
}

describe('one runner for background work', () => {
  test('no file of src/ loops on its own timer, but the runner and the per-request timers named here', () => {
    const files = Object.fromEntries(sources.map((path) => [path, readFileSync(join(root, path), 'utf8')]))
    expect(repeatingTimers(files).filter((path) => !(path in ALLOWED))).toEqual([])
    // Each entry still has its timer: a stale one would let a new loop hide under its name.
    expect(Object.keys(ALLOWED).filter((path) => !repeatingTimers({ [path]: files[path] ?? '' }).length)).toEqual([])
  })

  test('the check sees a planted loop', () => {
    const planted = {
      'src/core/rooms/prune-rooms.ts': 'export function start(ctx) {\n  const timer = setInterval(() => prune(ctx), 60_000)\n}',
    }
    expect(repeatingTimers(planted)).toEqual(['src/core/rooms/prune-rooms.ts'])
  })
})
