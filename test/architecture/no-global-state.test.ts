import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// The database is a value (db/database.ts), carried in the context: nothing about it may live in a module.
const root = join(import.meta.dir, '..', '..')
const sources = [...new Bun.Glob('src/**/*.{ts,tsx}').scanSync({ cwd: root })].sort()
const topLevel = (pattern: RegExp) =>
  sources.flatMap((path) =>
    readFileSync(join(root, path), 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  )

test('no module exports a binding that is rebound later (`export let`), as the tables once were', () => {
  expect(sources.length).toBeGreaterThan(100)
  expect(topLevel(/^export\s+(let|var)\b/)).toEqual([])
})

test('src/db holds no module-level mutable state: every database is opened as a value of its own', () => {
  const inDb = topLevel(/^(export\s+)?(let|var)\b/).filter((line) => line.startsWith('src/db/'))
  expect(inDb).toEqual([])
  // And nothing reads a process-wide dialect: each database says its own (`ctx.db.dialect`, `ctx.db.shared`).
  expect(topLevel(/\bactiveDialect\(|\buseDialect\(|\buseTablesOf\(/)).toEqual([])
})
