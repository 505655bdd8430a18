/**
 * `bun run deps`: checks the import rules of .dependency-cruiser.cjs (test/architecture runs the same check)
 * and prints the graph between the units of src/: an area of routes, a concept of core, a top-level folder or file.
 * docs/architecture.md draws this graph. Exits 1 on any violation.
 */
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')

type Rule = { name: string; from: { path: string } }
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as {
  forbidden: Rule[]
  options: Record<string, unknown>
}

/** Every import of src/, scripts/ and viewer/src (the front ends), checked against the rules; `at` another tree laid out alike (a test's). */
export async function cruiseImports(at = root): Promise<ICruiseResult> {
  const { output } = await cruise(
    ['src', 'scripts', 'viewer/src'],
    // The options are dependency-cruiser's own, from its configuration file; its types do not describe a required config.
    { ...config.options, baseDir: at, validate: true, ruleSet: { forbidden: config.forbidden } } as never,
    undefined,
    { tsConfig: { fileName: join(at, 'tsconfig.json') } } as never,
  )
  return output as ICruiseResult
}

/** The paths of the layers the rules name (each `<layer>-imports-only-below` rule starts from one). */
export function layerPaths(): RegExp[] {
  return config.forbidden.filter((rule) => rule.name.endsWith('-imports-only-below')).map((rule) => new RegExp(rule.from.path))
}

export function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' → ')})` : ''
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`
}

/** A file's unit: its area of routes (routes/files), its concept (core/files), its top-level folder (db) or file (app). */
function unitOf(path: string): string | undefined {
  return /^src\/((?:routes|core)\/[^/.]+|[^/]+?)(\/|\.ts$)/.exec(path)?.[1]
}

/** Which units each unit of src/ imports, by name. */
export function unitGraph(result: ICruiseResult): Map<string, string[]> {
  const graph = new Map<string, Set<string>>()
  for (const module of result.modules) {
    const from = unitOf(module.source)
    if (!from) continue
    for (const dependency of module.dependencies) {
      const to = unitOf(dependency.resolved)
      if (!to || to === from) continue
      if (!graph.has(from)) graph.set(from, new Set())
      graph.get(from)!.add(to)
    }
  }
  return new Map([...graph].sort(([a], [b]) => a.localeCompare(b)).map(([from, to]) => [from, [...to].sort()]))
}

if (import.meta.main) {
  const result = await cruiseImports()
  for (const [from, to] of unitGraph(result)) console.log(`${from} → ${to.join(', ')}`)
  const violations = result.summary.violations.map(describeViolation)
  for (const violation of violations) console.log(`VIOLATION ${violation}`)
  console.log(
    violations.length === 0 ? 'no violation of .dependency-cruiser.cjs' : `${violations.length} violation(s) of .dependency-cruiser.cjs`,
  )
  process.exitCode = violations.length === 0 ? 0 : 1
}
