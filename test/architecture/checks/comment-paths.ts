import { parseSync } from '@swc/core'
import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'

/**
 * Finds repository paths named in comments (of TypeScript, JavaScript and CSS files) and in Markdown that name
 * nothing in the repository: a file moved or removed and the comment kept its old name. Each is reported as
 * `file:line: path`.
 *
 * What counts as a path of the repository (everything else is left alone):
 * - a word with a slash whose first part is a folder of the repository (`src/…`, `core/links/readers.ts`,
 *   `support/harness.ts`, `routes/files/`) and that ends in a file's extension or a slash, or starts with a
 *   top-level folder (`src/core/files`);
 * - a word starting with `./` or `../` that ends in a file's extension (relative to the file that names it);
 * - a bare file name of a source or a doc (`pump.ts`, `harness.ts`, `api.md`), which must be somewhere in the repository.
 * It must then exist, as a file or folder, relative to the repository's root, to src/, or to the folder of the
 * file that names it or any folder above that (a test names `support/harness.ts` from test/api/).
 * Not paths: URLs, absolute paths (`/api/files/:id`, `/proc/self/fd`), words with a pattern or a placeholder
 * (`*`, `{a,b}`, `<feature>`, `$1`), npm packages' paths (the first part is a dependency of package.json, or
 * `node_modules/`), what .gitignore keeps out of the repository (`dist/`, `data/`, `viewer/dist/`), a folder's
 * name alone (`answers/`: which one depends on the sentence), and a path after a possessive (pdf.js's `test/pdfs`:
 * another project's).
 */
export function findMissingPaths(options: {
  root: string
  /** Every file of the repository, relative to root. */
  repoFiles: string[]
  /** The files whose comments (or, for Markdown, whole text) are read. */
  scanned: string[]
  /** Folders .gitignore leaves out, relative to root (`dist/`): what is named under them is not checked. */
  ignored: string[]
  /** Packages whose paths are not the repository's (`pdfjs-dist/web/…`). */
  packages: string[]
}): string[] {
  const files = new Set(options.repoFiles)
  const folders = new Set(options.repoFiles.flatMap((file) => ancestorsOf(file)))
  const folderNames = new Set([...folders].map((folder) => folder.split('/').at(-1)!))
  const topLevel = new Set(options.repoFiles.map((file) => file.split('/')[0]!))
  const basenames = new Set(options.repoFiles.map((file) => file.split('/').at(-1)!))
  const packages = new Set(options.packages)
  const exists = (path: string) =>
    files.has(path) || folders.has(path) || ['.ts', '.tsx', '/index.ts'].some((suffix) => files.has(path + suffix))
  const ignored = (path: string) => options.ignored.some((prefix) => `${path}/`.startsWith(prefix))

  /** The path a word names, from where it is named; undefined when the word is not a path of the repository. */
  const named = (word: string, from: string): string | undefined => {
    if (/[*{}$<>\\=%~^|[\]…]|:\/\/|^\/|^@|^-/.test(word)) return undefined
    const parts = word.split('/').filter((part) => part !== '')
    if (parts[0] === '.' || parts[0] === '..') {
      if (!FILE_NAME.test(word)) return undefined // `./data`: a folder where a command runs
      return exists(normalize(join(dirname(from), word))) ? undefined : word
    }
    if (word.startsWith('.')) return undefined // `.d.ts`, `.ts`: an extension
    if (parts.length === 1) {
      // A bare folder (`answers/`) is too vague to check; a bare source file's name must be somewhere.
      if (word.endsWith('/') || !SOURCE_NAME.test(word)) return undefined
      return basenames.has(word) ? undefined : word
    }
    const first = parts[0]!
    if (first === 'node_modules' || packages.has(first) || !folderNames.has(first)) return undefined
    if (!(topLevel.has(first) || word.endsWith('/') || FILE_NAME.test(parts.at(-1)!))) return undefined
    const path = parts.join('/')
    const bases = ['', 'src', ...ancestorsOf(from)]
    if (bases.some((base) => ignored(join(base, path)))) return undefined
    return bases.some((base) => exists(normalize(join(base, path)))) ? undefined : word
  }

  const findings: string[] = []
  for (const file of options.scanned) {
    const source = readFileSync(join(options.root, file), 'utf8')
    const text = file.endsWith('.md') ? source : file.endsWith('.css') ? cssComments(source) : codeComments(source, file)
    for (const [index, line] of text.split('\n').entries()) {
      for (const word of wordsOf(line)) {
        const missing = named(word, file)
        if (missing) findings.push(`${file}:${index + 1}: ${missing}`)
      }
    }
  }
  return findings
}

const EXTENSIONS = 'ts|tsx|mjs|cjs|js|json|jsonc|css|md|sql|svg|yaml|yml|toml|sh|lock'
const FILE_NAME = new RegExp(`\\.(${EXTENSIONS})$`)
/** A bare name checked anywhere in the repository: our sources and docs, not the data files, configs or packages' files they talk about. */
const SOURCE_NAME = /^[\w.-]+\.(ts|tsx|md)$/

/**
 * The words of a line that could be paths, without the punctuation of the sentence around them or a line number.
 * A path after a possessive names another project's file (pdf.js's `test/pdfs`, Elysia's src/error.ts).
 */
function wordsOf(line: string): string[] {
  const words: string[] = []
  for (const match of line.matchAll(/[^\s`'"(),;!?]+/g)) {
    if (/\w's\s+(\d[\d,]*\s+)?`?$/.test(line.slice(0, match.index))) continue
    const word = match[0]
      .replace(/#.*$/, '') // a Markdown anchor
      .replace(/(:\d+)+$/, '') // a line number
      .replace(/[.:]+$/, '')
    if (word.includes('/') || /\.\w+$/.test(word)) words.push(word)
  }
  return words
}

/** Every folder a file lies in: `a/b/c.ts` → `a`, `a/b`. */
function ancestorsOf(file: string): string[] {
  const parts = file.split('/').slice(0, -1)
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'))
}

/**
 * The comments of a source file, at their places (everything else blanked, lines kept). swc parses the file and
 * its strings, template texts, regular expressions and JSX texts are blanked first, so that a `//` left is a
 * comment's start.
 */
function codeComments(source: string, file: string): string {
  const prefix = '"";' // a statement at byte 0, whose position tells where swc counts this file's bytes from
  const code = source.replace(/^#![^\n]*/, (line) => ' '.repeat(line.length)) // a shebang is not a comment
  const module = parseSync(prefix + code, { syntax: 'typescript', tsx: file.endsWith('.tsx') }) as unknown as Node
  const base = (nodes(module.body)[0]!.span as Span).start + prefix.length
  const bytes = Buffer.from(code)
  const blank = (span: Span) => {
    for (let at = span.start - base; at < span.end - base; at++) if (bytes[at] !== 0x0a) bytes[at] = 0x20
  }
  // Into every object, not only nodes: swc wraps arguments and array elements in `{ spread, expression }`.
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return
    if (isNode(value) && LITERALS.has(value.type)) blank(value.span as Span)
    for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child)
  }
  visit(module)
  return bytes.toString().replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|[^\n]/g, (match) => (match.length > 1 ? match : ' '))
}

function cssComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|[^\n]/g, (match) => (match.length > 1 ? match : ' '))
}

type Span = { start: number; end: number }
type Node = { type: string; span?: Span; [key: string]: unknown }
const LITERALS = new Set(['StringLiteral', 'TemplateElement', 'RegExpLiteral', 'JSXText'])
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'
const nodes = (value: unknown): Node[] => (Array.isArray(value) ? value.filter(isNode) : [])
