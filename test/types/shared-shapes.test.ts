import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expectTypeOf } from 'expect-type'
import { treaty } from '@elysiajs/eden'
import type { Static } from 'elysia'
import type { App } from '../../src/app'
import type { LoginBody, NewTokenBody } from '../../src/routes/auth/model'
import type { LinkJson } from '../../src/routes/links/model'
import type { WebhookJson } from '../../src/routes/webhooks/model'
import type { ListQuery } from '../../src/routes/files/model'
import type { ListOrder } from '../../src/shared/file-shapes'

const ROOT = join(import.meta.dir, '..', '..')
const SHARED = join(ROOT, 'src', 'shared')
const DASHBOARD = join(ROOT, 'viewer', 'src', 'dashboard')

const sourcesIn = (dir: string) =>
  readdirSync(dir)
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => ({ name: relative(ROOT, join(dir, name)), source: readFileSync(join(dir, name), 'utf8') }))

/** An API type by its name: a resource (`FileDto`) or a page of a list (`FileListPage`). */
const API_TYPE = /(?:Dto|Page)$/
/** Where the dashboard may take an API type from: the server's models, whose t-schemas the types come from. */
const MODEL = /^(?:\.\.\/)+src\/routes\/[^/]+\/model$/

test('src/shared is safe to bundle into the dashboard: it imports only its own files and uses no Bun or Node API', () => {
  const files = readdirSync(SHARED).filter((name) => name.endsWith('.ts'))
  expect(files.length).toBeGreaterThan(0)
  for (const name of files) {
    const source = readFileSync(join(SHARED, name), 'utf8')
    const imports = [...source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map((match) => match[1] ?? match[2])
    expect({ name, imports: imports.filter((path) => !path?.startsWith('./')) }).toEqual({ name, imports: [] })
    expect({ name, runtime: /\b(Bun|process|require)\b[.(]/.test(source) }).toEqual({ name, runtime: false })
  }
})

/**
 * Each API shape is written once, as a t-schema in src/routes/<area>/model.ts, and its type is
 * `Static<typeof Schema>` there. src/shared keeps what both sides need at run time (limits, orders, events,
 * sizes) and the types derived from those constants; a hand-written copy of an API type must not come back.
 */
test('src/shared declares no API type: its only types are derived from its constants', () => {
  const found: string[] = []
  for (const { name, source } of sourcesIn(SHARED)) {
    for (const match of source.matchAll(/^\s*(?:export\s+)?(?:declare\s+)?(type|interface)\s+(\w+)[^=]*?(=\s*([^\n]*))?$/gm)) {
      const [, kind, typeName = '', , right = ''] = match
      if (kind === 'interface') found.push(`${name}: interface ${typeName}`)
      else if (API_TYPE.test(typeName)) found.push(`${name}: type ${typeName}`)
      else if (!/\btypeof\b/.test(right)) found.push(`${name}: type ${typeName} is not derived from a constant`)
    }
  }
  expect(found).toEqual([])
})

test('the dashboard takes every API type from the server models and writes none of its own', () => {
  const found: string[] = []
  let fromModels = 0
  for (const { name, source } of sourcesIn(DASHBOARD)) {
    // import { A, type B } from '…', import type { C as D } from '…', export type { E } from '…', over several lines too.
    // verbatimModuleSyntax makes every type import say `type`, so the values (FilesPage, a component) are told apart.
    for (const [, typeOnly, names = '', path = ''] of source.matchAll(
      /\b(?:import|export)\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g,
    )) {
      for (const entry of names.split(',')) {
        const isType = Boolean(typeOnly) || /^\s*type\s/.test(entry)
        const imported =
          entry
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] ?? ''
        if (!isType || !API_TYPE.test(imported)) continue
        if (MODEL.test(path)) fromModels++
        else found.push(`${name}: ${imported} from ${path}`)
      }
    }
    for (const [, typeName] of source.matchAll(/^\s*(?:export\s+)?(?:type|interface)\s+(\w+)/gm)) {
      if (typeName && API_TYPE.test(typeName)) found.push(`${name}: declares ${typeName}`)
    }
  }
  expect(found).toEqual([])
  // The pages do use the models' types, so the check above has something to look at.
  expect(fromModels).toBeGreaterThan(10)
})

// Checked by `bun run typecheck`: the order the list query takes is the one LIST_ORDERS spells.
test('ListOrder is the order the files list query takes', () => {
  expectTypeOf<NonNullable<Static<typeof ListQuery>['order']>>().toEqualTypeOf<ListOrder>()
})

test("the dashboard's client sends the bodies the routes check: their types are the models' schemas", () => {
  type Client = ReturnType<typeof treaty<App>>['api']
  expectTypeOf<Parameters<Client['tokens']['post']>[0]>().toEqualTypeOf<Static<typeof NewTokenBody>>()
  expectTypeOf<Parameters<Client['auth']['login']['post']>[0]>().toEqualTypeOf<Static<typeof LoginBody>>()
  expectTypeOf<NonNullable<Parameters<ReturnType<Client['links']>['patch']>[0]>>().toEqualTypeOf<Static<typeof LinkJson>>()
  expectTypeOf<Parameters<Client['webhooks']['post']>[0]>().toEqualTypeOf<Static<typeof WebhookJson>>()
  // A wrong body is a type error in the dashboard, not a 400 found in a browser.
  expectTypeOf<{ label: number }>().not.toMatchTypeOf<Parameters<Client['tokens']['post']>[0]>()
  expect(typeof treaty).toBe('function')
})
