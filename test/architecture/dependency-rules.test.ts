import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
    'src/routes/files/model.ts': 'export const FileSchema = { id: 1 }\nexport type FileDto = { id: string }\n',
    // The server taking the viewer's source
    'src/routes/files/index.ts': "import { used } from '../../../viewer/src/allowed'\nexport const routes = used\n",
    // What the front ends may import: shared/ as values, the API's types
    'viewer/src/allowed.ts':
      "import type { App } from '../../src/app'\nimport type { FileDto } from '../../src/routes/files/model'\nimport { MAX } from '../../src/shared/limits'\nexport const used: [App?, FileDto?, number?] = [undefined, undefined, MAX]\n",
    // The database, in the browser bundle
    'viewer/src/reaches-db.ts': "import { openDb } from '../../src/db/client'\nexport const opened = openDb()\n",
    // A model's value, which would bundle the server's schemas
    'viewer/src/model-value.ts': "import { FileSchema } from '../../src/routes/files/model'\nexport const schema = FileSchema\n",
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
      'src-never-imports-the-viewer: src/routes/files/index.ts → viewer/src/allowed.ts',
      'viewer-imports-only-shared-and-api-types: viewer/src/reaches-db.ts → src/db/client.ts',
      'viewer-takes-only-types-from-the-api: viewer/src/model-value.ts → src/routes/files/model.ts',
    ])
  })
})

describe('one home per concept', () => {
  const src = join(import.meta.dir, '..', '..', 'src')
  // routes/<area>/: index.ts its routes; model.ts its t-schemas and the types made from them; input.ts the checks of
  // what a request sends; answers/ the pages and headers of routes that answer HTML. Nothing else: a service, a
  // job, a presenter or a rule is logic, and lives in core/<concept>/.
  const ADAPTER_PARTS = new Set(['index.ts', 'model.ts', 'input.ts', 'answers'])

  test('a folder of routes holds only HTTP adapters, and its routes in index.ts', () => {
    const areas = readdirSync(join(src, 'routes'))
    expect(areas.length).toBeGreaterThan(5)
    for (const area of areas) {
      const entries = readdirSync(join(src, 'routes', area))
      expect({ area, others: entries.filter((entry) => !ADAPTER_PARTS.has(entry)) }).toEqual({ area, others: [] })
      expect({ area, routes: entries.includes('index.ts') }).toEqual({ area, routes: true })
    }
  })

  test('every concept of core/ is named in docs/architecture.md, which says what it owns', () => {
    const documented = readFileSync(join(src, '..', 'docs', 'architecture.md'), 'utf8')
    const concepts = readdirSync(join(src, 'core'), { withFileTypes: true }).filter((entry) => entry.isDirectory())
    expect(concepts.length).toBeGreaterThan(10)
    expect(concepts.map((entry) => entry.name).filter((name) => !documented.includes(`\`core/${name}/\``))).toEqual([])
  })
})
