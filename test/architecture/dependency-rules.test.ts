import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { cruiseImports, describeViolation, layerPaths } from '../../scripts/import-graph'

// The layers of src/ and the rules between them are written once, in .dependency-cruiser.cjs (read it for
// the why of each rule); docs/architecture.md draws them. These tests fail on any import that breaks them.
describe('the direction of imports', () => {
  const result = cruiseImports()

  test('no import cycle, no module importing another, nothing importing upward, src importing neither tests nor scripts', async () => {
    const { summary } = await result
    expect(summary.violations.map(describeViolation)).toEqual([])
  })

  test('every file of src/ belongs to a layer of .dependency-cruiser.cjs, so none escapes the rules', async () => {
    const layers = layerPaths()
    const sources = (await result).modules.map((module) => module.source).filter((source) => source.startsWith('src/'))
    expect(sources.length).toBeGreaterThan(100) // the cruise did read the TypeScript sources
    expect(sources.filter((source) => !layers.some((layer) => layer.test(source)))).toEqual([])
  })
})

describe('the shape of a feature module', () => {
  // index.ts: its routes; model.ts: its t-schemas and the types made from them; input.ts: the checks of what a
  // request sends; presenter.ts: rows → what leaves the server; rules.ts: checks the model and the input share;
  // service/: one verb a file, framework-free; worker/: what runs beside the server; answers/: the pages and
  // headers of routes that answer HTML.
  const ALLOWED = new Set(['index.ts', 'model.ts', 'input.ts', 'presenter.ts', 'rules.ts', 'service', 'worker', 'answers'])
  const modulesDir = join(import.meta.dir, '..', '..', 'src', 'modules')

  test('every module holds only the usual parts, and its routes in index.ts', () => {
    const modules = readdirSync(modulesDir)
    expect(modules.length).toBeGreaterThan(5)
    for (const name of modules) {
      const entries = readdirSync(join(modulesDir, name))
      expect({ module: name, others: entries.filter((entry) => !ALLOWED.has(entry)) }).toEqual({ module: name, others: [] })
      expect({ module: name, routes: entries.includes('index.ts') }).toEqual({ module: name, routes: true })
    }
  })
})
