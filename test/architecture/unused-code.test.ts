import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

// Code nobody runs and packages nobody imports: knip, configured in knip.jsonc (its entry points are everything
// that runs: the server, scripts, tests, the front ends' bundles, drizzle-kit's configurations).
const root = join(import.meta.dir, '..', '..')
const KNIP = join(root, 'node_modules', 'knip', 'bin', 'knip.js')

type Issue = { name: string }
type Report = { issues: { file: string; [kind: string]: Issue[] | string }[] }

/** What knip reports in the project at `cwd`, as `kind: file: name` lines (empty when nothing is unused). */
function knip(cwd: string): string[] {
  const run = Bun.spawnSync(['bun', KNIP, '--reporter', 'json', '--no-progress'], { cwd, stderr: 'pipe' })
  const output = run.stdout.toString()
  if (!output.trim().startsWith('{')) throw new Error(`knip did not report (exit ${run.exitCode}): ${output}${run.stderr.toString()}`)
  const report = JSON.parse(output) as Report
  return report.issues.flatMap(({ file, ...kinds }) =>
    Object.entries(kinds).flatMap(([kind, issues]) =>
      Array.isArray(issues) ? issues.map((issue) => `${kind}: ${file}: ${issue.name}`) : [],
    ),
  )
}

test('no unused file, export, type or dependency in the repository (knip)', () => {
  expect(knip(root)).toEqual([])
})

describe('knip finds planted unused code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-knip-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // The repository's own settings (what counts as used), on a small project of its own.
  const settings = Bun.JSONC.parse(readFileSync(join(root, 'knip.jsonc'), 'utf8')) as Record<string, unknown>
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'planted', private: true, type: 'module', dependencies: { 'left-pad': '1.3.0' } }),
    'knip.jsonc': JSON.stringify({ ...settings, entry: ['src/main.ts'], project: ['src/**/*.ts'], ignoreDependencies: [] }),
    'src/main.ts': "import { used } from './helpers'\nconsole.log(used())\n",
    'src/helpers.ts':
      'export const used = () => inFile()\n// Used in its own file only: a named part of it, not reported\nexport const inFile = () => 1\nexport const neverUsed = () => 2\nexport type NeverUsedType = { a: number }\n',
    'src/orphan.ts': 'export const orphan = 1\n',
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }

  test('an unused export, type, file and dependency are each reported', () => {
    expect(knip(dir).sort()).toEqual([
      'dependencies: package.json: left-pad',
      'exports: src/helpers.ts: neverUsed',
      'files: src/orphan.ts: src/orphan.ts',
      'types: src/helpers.ts: NeverUsedType',
    ])
  })
})
