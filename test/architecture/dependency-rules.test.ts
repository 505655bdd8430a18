import { describe, expect, test } from 'bun:test'
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
