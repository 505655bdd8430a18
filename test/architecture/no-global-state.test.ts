import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { findModuleState } from './checks/module-state'

// Everything an app holds lives in values it was given (the context, the database, the objects that own a cache):
// two apps, two databases, run in one process (the tests, `database migrate`), and nothing of one may leak into
// the other. So no module of src/ keeps state of its own.
const root = join(import.meta.dir, '..', '..')
const sources = [...new Bun.Glob('src/**/*.{ts,tsx}').scanSync({ cwd: root })].filter((path) => !path.endsWith('.d.ts')).sort()

describe('no module-level mutable state in src/', () => {
  test('no let or var at the top of a module, no Map, Set, array or object there that a function changes', () => {
    expect(sources.length).toBeGreaterThan(100)
    expect(findModuleState(root, sources)).toEqual([])
  })

  test('nothing reads a process-wide dialect: each database says its own (`ctx.db.dialect`, `ctx.db.shared`)', () => {
    const found = sources.filter((path) => /\bactiveDialect\(|\buseDialect\(|\buseTablesOf\(/.test(readFileSync(join(root, path), 'utf8')))
    expect(found).toEqual([])
  })
})

describe('the check finds planted state', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-module-state-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const plant = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    return findModuleState(dir, Object.keys(files).sort())
  }

  test('each kind of module-level state is reported, where it is declared', () => {
    const found = plant({
      'src/cache.ts':
        'const cache = new Map<string, number>()\nexport function remember(key: string, value: number) {\n  cache.set(key, value)\n}\n',
      'src/counter.ts': 'let count = 0\nexport const next = () => ++count\nexport var legacy = 1\n',
      'src/seen.ts': 'const seen: string[] = []\nexport const note = (name: string) => {\n  seen.push(name)\n}\n',
      'src/state.ts': 'const state = { calls: 0 }\nexport function call() {\n  state.calls++\n}\n',
      'src/settings.ts': 'const settings = { mode: "a" }\nexport function set(mode: string) {\n  Object.assign(settings, { mode })\n}\n',
      'src/registry.ts': 'export const REGISTERED = new Set<string>()\n',
      'src/register.ts': "import { REGISTERED } from './registry'\nexport const register = (name: string) => REGISTERED.add(name)\n",
      'src/handed.ts':
        'const byKey = new WeakMap<object, number>()\nexport const fill = (key: object) => store(byKey, key)\nfunction store(map: WeakMap<object, number>, key: object) {\n  map.set(key, 1)\n}\n',
      'src/wakers.ts':
        'const wakers = new WeakMap<object, Set<() => void>>()\nexport function onWake(key: object, wake: () => void) {\n  wakers.get(key)?.add(wake)\n}\n',
      'src/static.ts':
        'export class Registry {\n  static items = new Map<string, string>()\n  static count = 0\n  static readonly NAME = "registry"\n}\n',
      'src/global.ts': 'export function install() {\n  ;(globalThis as Record<string, unknown>).pdfshare = true\n}\n',
    })
    expect(found).toEqual([
      'src/cache.ts: cache — a module-level Map mutated in a function',
      'src/counter.ts: count — a module-level `let`',
      'src/counter.ts: legacy — a module-level `var`',
      'src/global.ts: globalThis — a write to a global',
      'src/handed.ts: byKey — a module-level WeakMap handed on in a function',
      'src/registry.ts: REGISTERED — a module-level Set mutated in a function',
      'src/seen.ts: seen — a module-level array mutated in a function',
      'src/settings.ts: settings — a module-level object mutated in a function',
      'src/state.ts: state — a module-level object mutated in a function',
      'src/static.ts: Registry.count — a static field that holds mutable state',
      'src/static.ts: Registry.items — a static field that holds mutable state',
      'src/wakers.ts: wakers — a module-level WeakMap mutated in a function',
    ])
  })

  test('constants are not state: tables read by functions, filled while the module loads, or shadowed by a local', () => {
    const found = plant({
      'src/words.ts': "const WORDS = new Set(['yes', 'no'])\nexport const isWord = (word: string) => WORDS.has(word)\n",
      'src/table.ts':
        'const DOUBLE = new Map<number, number>()\nfor (const n of [1, 2, 3]) DOUBLE.set(n, n * 2)\nexport const double = (n: number) => DOUBLE.get(n)\n',
      'src/local.ts':
        'const cache = new Map<string, number>()\nexport function count(names: string[]) {\n  const cache = new Map<string, number>()\n  for (const name of names) cache.set(name, (cache.get(name) ?? 0) + 1)\n  return cache\n}\nexport const known = (name: string) => cache.has(name)\n',
      'src/list.ts':
        "const STATES = ['on', 'off'] as const\nexport const states = () => [...STATES]\nexport const oneOf = (value: string) => STATES.includes(value as never)\n",
    })
    expect(found).toEqual([])
  })
})
