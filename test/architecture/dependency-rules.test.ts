import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { cruiseImports, describeViolation, layerPaths } from '../../scripts/import-graph'

// The layers of src/ and the rules between them are written once, in .dependency-cruiser.cjs (read it for
// the why of each rule); docs/architecture.md draws them. These tests fail on any import that breaks them.
describe('the direction of imports', () => {
  const result = cruiseImports()

  test('no import cycle, no module importing another, nothing importing upward, src importing neither tests nor scripts; the viewer takes only shared/ and the API types', async () => {
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

describe('the rules fail on planted imports', () => {
  // A small tree laid out like the repository's, cruised with the same rules.
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-import-rules-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'Preserve', moduleResolution: 'bundler', allowImportingTsExtensions: true },
    }),
    'scripts/build.ts': 'export const built = true\n',
    'src/db/client.ts': 'export const openDb = () => 1\n',
    'src/shared/limits.ts': 'export const MAX = 1\n',
    'src/app.ts': 'export const app = { version: 1 }\nexport type App = typeof app\n',
    'src/modules/files/model.ts': 'export const FileSchema = { id: 1 }\nexport type FileDto = { id: string }\n',
    // The server taking the viewer's source
    'src/modules/files/index.ts': "import { used } from '../../../viewer/src/allowed'\nexport const routes = used\n",
    // What the front ends may import: shared/ as values, the API's types
    'viewer/src/allowed.ts':
      "import type { App } from '../../src/app'\nimport type { FileDto } from '../../src/modules/files/model'\nimport { MAX } from '../../src/shared/limits'\nexport const used: [App?, FileDto?, number?] = [undefined, undefined, MAX]\n",
    // The database, in the browser bundle
    'viewer/src/reaches-db.ts': "import { openDb } from '../../src/db/client'\nexport const opened = openDb()\n",
    // A model's value, which would bundle the server's schemas
    'viewer/src/model-value.ts': "import { FileSchema } from '../../src/modules/files/model'\nexport const schema = FileSchema\n",
    // A cycle between two of the viewer's files
    'viewer/src/one.ts': "import { two } from './two'\nexport const one = () => two()\n",
    'viewer/src/two.ts': "import { one } from './one'\nexport const two = (): number => (one ? 2 : 0)\n",
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }

  test("a viewer file importing src/db or a model's value, a cycle in viewer/, and src importing the viewer are each reported", async () => {
    const { summary } = await cruiseImports(dir)
    expect(summary.violations.map(describeViolation).sort()).toEqual([
      'no-circular: viewer/src/one.ts → viewer/src/two.ts (cycle: viewer/src/two.ts → viewer/src/one.ts)',
      'src-never-imports-the-viewer: src/modules/files/index.ts → viewer/src/allowed.ts',
      'viewer-imports-only-shared-and-api-types: viewer/src/reaches-db.ts → src/db/client.ts',
      'viewer-takes-only-types-from-the-api: viewer/src/model-value.ts → src/modules/files/model.ts',
    ])
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
