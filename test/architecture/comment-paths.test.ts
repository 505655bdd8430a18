import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { findMissingPaths } from './checks/comment-paths'

// A comment or a doc that names a file sends its reader there: when the file moves, the name must move with it.
const root = join(import.meta.dir, '..', '..')
const git = (...args: string[]) =>
  Bun.spawnSync(['git', ...args], { cwd: root })
    .stdout.toString()
    .trim()
    .split('\n')
// Tracked files and new ones not yet added (a file just created counts), without what .gitignore leaves out.
const repoFiles = git('ls-files', '--cached', '--others', '--exclude-standard').filter(Boolean)
const SCANNED = /^(src|test|scripts|viewer)\/.*\.(ts|tsx|mjs|cjs|js|css)$|\.md$/
const gitignored = readFileSync(join(root, '.gitignore'), 'utf8')
  .split('\n')
  .filter((line) => line.endsWith('/'))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>
const packages = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })

test('every repository path named in a comment of src, test, scripts or viewer, or in a Markdown file (docs, README) exists', () => {
  const scanned = repoFiles.filter((path) => SCANNED.test(path))
  expect(scanned.length).toBeGreaterThan(500)
  expect(findMissingPaths({ root, repoFiles, scanned, ignored: gitignored, packages })).toEqual([])
})

describe('the check finds planted paths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-comment-paths-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const files: Record<string, string> = {
    'src/core/files/quota.ts':
      '// The quota: see core/files/usage.ts and src/core/links/readers.ts, which moved.\nexport const quota = 1\n',
    'src/core/files/usage.ts': [
      '/**',
      ' * Named and there: src/core/files/quota.ts, core/files/quota.ts (under src/), ./quota.ts, test/support/',
      ' * Not paths: https://example.com/src/core/gone.ts, pdfjs-dist/web/pdf_viewer.mjs, /api/files/:id, dist/pdfshare,',
      " * src/modules/<feature>/index.ts, test/**.test.ts, pdf.js's test/pdfs, a.ts-like prose.",
      ' */',
      "export const where = 'src/core/not-a-comment.ts' // a string is not a comment; src/core/files/gone.ts here is",
      'export const pattern = /\\/\\/ src\\/core\\/in-a-regex\\.ts/',
      '',
    ].join('\n'),
    'test/support/harness.ts': 'export const harness = 1\n',
    'test/api/files.test.ts': '// Uses support/harness.ts and support/missing.ts (from test/), and harness.ts by its name.\n',
    'viewer/src/app.tsx': "export const App = () => <p>Don't read src/x.ts here</p> // but here: viewer/src/gone.tsx\n",
    'docs/guide.md':
      'See `src/core/files/quota.ts`, `src/core/files/quota.ts:12`, [usage](../src/core/files/usage.ts) and [the API](api.md#errors).\n',
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }

  test('a missing path in a comment or a doc is reported with its line; URLs, packages, placeholders and code are not', () => {
    const found = findMissingPaths({
      root: dir,
      repoFiles: Object.keys(files),
      scanned: Object.keys(files),
      ignored: ['dist/'],
      packages: ['pdfjs-dist'],
    })
    expect(found).toEqual([
      'src/core/files/quota.ts:1: src/core/links/readers.ts',
      'src/core/files/usage.ts:6: src/core/files/gone.ts',
      'test/api/files.test.ts:1: support/missing.ts',
      'viewer/src/app.tsx:1: viewer/src/gone.tsx',
      'docs/guide.md:1: api.md',
    ])
  })
})
