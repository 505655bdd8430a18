import { parseSync } from '@swc/core'
import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'

/**
 * Finds module-level mutable state in TypeScript files: state that one import of a module shares between every
 * app, database and request of the process (two apps in one process, as the tests and `database migrate` have,
 * would share it). Reported, each as `path: name — why`:
 * - a module-level `let` or `var` (exported or not);
 * - a module-level `const` that a function mutates: a method that changes a Map, Set, WeakMap or array (`set`,
 *   `add`, `delete`, `clear`, `push`, `splice`, `sort`…), an assignment, `++`/`--` or `delete` on one of its
 *   members, also through `.get(key)` (a Set kept in a Map) and from another file that imports it. A table filled
 *   once while the module loads (statements at the top level) is not state: every app sees the same;
 * - a module-level Map, Set, WeakMap or WeakSet that a function hands to another (it could be mutated there);
 * - a class's static field that is not `readonly`, or that holds a Map, Set, WeakMap, WeakSet, array or object;
 * - a write to a member of `globalThis`.
 * Declarations only (`declare`, .d.ts) are not state.
 */
export function findModuleState(root: string, paths: string[]): string[] {
  const files = paths.map((path) => ({ path, module: parse(join(root, path)) }))
  const state = new Map(files.map(({ path, module }) => [path, moduleBindings(module)]))
  const findings: string[] = []
  const report = (path: string, name: string, why: string) => {
    const line = `${path}: ${name} — ${why}`
    if (!findings.includes(line)) findings.push(line)
  }
  for (const { path, module } of files) {
    const own = state.get(path)!
    for (const [name, binding] of own) if (binding.kind !== 'const') report(path, name, `a module-level \`${binding.kind}\``)
    for (const name of staticFields(module)) report(path, name, 'a static field that holds mutable state')
    // What this file's functions change, as the binding it belongs to: its own, or the one it imported.
    const imported = importedBindings(path, module, state)
    for (const change of changes(module)) {
      if (change.name === 'globalThis') {
        report(path, 'globalThis', 'a write to a global')
        continue
      }
      const target = own.has(change.name) ? { path, name: change.name } : imported.get(change.name)
      const binding = target && state.get(target.path)?.get(target.name)
      if (!target || !binding || binding.kind !== 'const') continue
      // A list or object handed to a function is read there (a constant list of names, passed to a check); a Map or Set may be filled.
      if (change.how === 'handed on' && !COLLECTIONS.has(binding.container ?? '')) continue
      report(target.path, target.name, `a module-level ${binding.container ?? 'value'} ${change.how} in a function`)
    }
  }
  return findings.sort()
}

type Node = { type: string; [key: string]: unknown }
type Binding = { kind: 'let' | 'var' | 'const'; container: string | undefined }
type Change = { name: string; how: 'mutated' | 'handed on' }

const MUTATING = new Set([
  'set',
  'add',
  'delete',
  'clear',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
])
const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet'])
const OBJECT_WRITES = new Set(['assign', 'defineProperty', 'defineProperties', 'setPrototypeOf'])
// Calls that return a value the receiver holds (so a change to it changes the receiver's state).
const HOLDING = new Set(['get', 'at', 'find', 'findLast'])
const WRAPPERS = new Set([
  'OptionalChainingExpression',
  'TsNonNullExpression',
  'TsAsExpression',
  'TsSatisfiesExpression',
  'ParenthesisExpression',
])
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'PrivateMethod',
  'Constructor',
  'GetterProperty',
  'SetterProperty',
  'MethodProperty',
])

function parse(file: string): Node {
  return parseSync(readFileSync(file, 'utf8'), { syntax: 'typescript', tsx: file.endsWith('.tsx') }) as unknown as Node
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'
const nodes = (value: unknown): Node[] => (Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : [])
const identifier = (node: unknown) => (isNode(node) && node.type === 'Identifier' ? (node.value as string) : undefined)

/** Every child node, also inside arrays and the wrappers swc puts around arguments (`{ spread, expression }`). */
function children(node: Node): Node[] {
  const out: Node[] = []
  for (const [key, value] of Object.entries(node)) {
    if (key === 'span' || key === 'typeAnnotation' || key === 'returnType' || key === 'typeParameters') continue
    for (const item of Array.isArray(value) ? value : [value]) {
      if (isNode(item)) out.push(item)
      else if (typeof item === 'object' && item !== null && isNode((item as { expression?: unknown }).expression))
        out.push((item as { expression: Node }).expression)
    }
  }
  return out
}

/** The top-level statements, with `export` taken off. */
function topLevel(module: Node): Node[] {
  return nodes(module.body).map((item) => (item.type === 'ExportDeclaration' && isNode(item.declaration) ? item.declaration : item))
}

/** What the top level declares with let, var and const, and which constants start as a container. */
function moduleBindings(module: Node): Map<string, Binding> {
  const bindings = new Map<string, Binding>()
  for (const statement of topLevel(module)) {
    if (statement.type !== 'VariableDeclaration' || statement.declare) continue
    for (const declarator of nodes(statement.declarations)) {
      for (const name of patternNames(declarator.id)) {
        bindings.set(name, { kind: statement.kind as Binding['kind'], container: containerOf(declarator.init) })
      }
    }
  }
  return bindings
}

function containerOf(expression: unknown): string | undefined {
  const init = unwrapped(expression)
  if (!init) return undefined
  if (init.type === 'ArrayExpression') return 'array'
  if (init.type === 'ObjectExpression') return 'object'
  const callee = identifier(init.callee)
  if (init.type === 'NewExpression' && callee === 'Array') return 'array'
  if (init.type === 'NewExpression' && callee && COLLECTIONS.has(callee)) return callee
  return undefined
}

/** The names a binding pattern declares (`a`, `{ a, b: c }`, `[a, ...d]`). */
function patternNames(pattern: unknown): string[] {
  if (!isNode(pattern)) return []
  const name = identifier(pattern)
  if (name) return [name]
  if (pattern.type === 'BindingIdentifier') return [pattern.value as string]
  return children(pattern).flatMap((child) => (child.type === 'KeyValuePatternProperty' ? patternNames(child.value) : patternNames(child)))
}

function staticFields(module: Node): string[] {
  const classes: Node[] = []
  const visit = (node: Node) => {
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') classes.push(node)
    for (const child of children(node)) visit(child)
  }
  visit(module)
  return classes.flatMap((cls) =>
    nodes(cls.body)
      .filter((member) => member.type === 'ClassProperty' && member.isStatic && !member.declare)
      .filter((member) => !member.readonly || containerOf(member.value) !== undefined)
      .map((member) => `${identifier(cls.identifier) ?? 'class'}.${identifier(member.key) ?? '[computed]'}`),
  )
}

/** Local name → the exporting file and name, for the named imports of relative paths among the files checked. */
function importedBindings(path: string, module: Node, known: ReadonlyMap<string, unknown>): Map<string, { path: string; name: string }> {
  const imported = new Map<string, { path: string; name: string }>()
  for (const statement of nodes(module.body)) {
    const source = isNode(statement.source) ? (statement.source.value as string) : undefined
    if (statement.type !== 'ImportDeclaration' || !source?.startsWith('.')) continue
    const from = normalize(join(dirname(path), source)).replace(/\.tsx?$/, '')
    const file = [`${from}.ts`, `${from}.tsx`, `${from}/index.ts`].find((candidate) => known.has(candidate))
    if (!file) continue
    for (const specifier of nodes(statement.specifiers)) {
      if (specifier.type !== 'ImportSpecifier') continue
      const local = identifier(specifier.local)!
      imported.set(local, { path: file, name: identifier(specifier.imported) ?? local })
    }
  }
  return imported
}

/** Each change a function makes to a binding it does not declare itself. */
function changes(module: Node): Change[] {
  const found: Change[] = []
  const visit = (node: Node, inFunction: boolean, shadowed: ReadonlySet<string>) => {
    if (FUNCTIONS.has(node.type)) {
      shadowed = new Set([...shadowed, ...declaredIn(node)])
      inFunction = true
    }
    if (inFunction) found.push(...changesBy(node).filter((change) => !shadowed.has(change.name)))
    for (const child of children(node)) visit(child, inFunction, shadowed)
  }
  visit(module, false, new Set())
  return found
}

function changesBy(node: Node): Change[] {
  const callee = node.type === 'CallExpression' ? unwrapped(node.callee) : undefined
  if (callee?.type === 'MemberExpression') {
    const method = identifier(callee.property)
    const name = rootOf(callee.object)
    if (method && MUTATING.has(method) && name) return [{ name, how: 'mutated' }]
    // Object.assign(state, …), Object.defineProperty(state, …): the first argument is changed.
    const target = rootOf((node.arguments as { expression?: unknown }[])[0]?.expression)
    if (identifier(callee.object) === 'Object' && method && OBJECT_WRITES.has(method) && target) return [{ name: target, how: 'mutated' }]
  }
  if (node.type === 'CallExpression' || node.type === 'NewExpression') {
    const handed = children({ type: 'Arguments', list: node.arguments }).map(identifier)
    return handed.flatMap((name) => (name ? [{ name, how: 'handed on' as const }] : []))
  }
  const target =
    node.type === 'AssignmentExpression'
      ? node.left
      : node.type === 'UpdateExpression' || (node.type === 'UnaryExpression' && node.operator === 'delete')
        ? node.argument
        : undefined
  const member = unwrapped(target)
  const name = member?.type === 'MemberExpression' ? rootOf(member.object) : undefined
  return name ? [{ name, how: 'mutated' }] : []
}

/** An expression without the wrappers that do not change what it is: `?.`, `!`, `as T`, parentheses. */
function unwrapped(node: unknown): Node | undefined {
  if (!isNode(node)) return undefined
  if (WRAPPERS.has(node.type)) return unwrapped(node.expression ?? node.base)
  return node
}

/** The binding an expression reads from: `a` of `a`, `a.b[c]`, `a.get(k)!`, `(a as T)`. */
function rootOf(expression: unknown): string | undefined {
  const node = unwrapped(expression)
  if (!node) return undefined
  const name = identifier(node)
  if (name) return name
  if (node.type === 'MemberExpression') return rootOf(node.object)
  const callee = node.type === 'CallExpression' ? unwrapped(node.callee) : undefined
  if (callee?.type === 'MemberExpression') {
    const method = identifier(callee.property)
    return method && HOLDING.has(method) ? rootOf(callee.object) : undefined
  }
  return undefined
}

/** The names a function declares: its parameters and every variable, function and class inside it. */
function declaredIn(fn: Node): string[] {
  const names: string[] = []
  for (const param of nodes(fn.params)) names.push(...patternNames(param.type === 'Parameter' ? param.pat : param))
  const visit = (node: Node) => {
    if (node.type === 'VariableDeclarator') names.push(...patternNames(node.id))
    if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && identifier(node.identifier))
      names.push(identifier(node.identifier)!)
    if (node.type === 'CatchClause') names.push(...patternNames(node.param))
    if (FUNCTIONS.has(node.type) && node !== fn) return
    for (const child of children(node)) visit(child)
  }
  for (const child of children(fn)) visit(child)
  return names
}
