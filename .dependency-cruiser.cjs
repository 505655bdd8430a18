/**
 * The direction of imports in src/, and what the front ends in viewer/ may take from it, as rules that
 * dependency-cruiser checks. test/architecture runs them and fails on any violation; docs/architecture.md draws
 * the same layers.
 *
 * Each unit of src/ may import only the units listed for it (and itself). Read the table from the bottom:
 * leaves that import nothing of ours, then storage and the database, the core (every concept's logic, one folder
 * each), the edges the routes use (HTTP helpers, web assets), the routes (HTTP adapters, one folder an area), and
 * the entry points. A new folder of src/ must be added here (the test refuses files of src/ that belong to no unit).
 */
const LAYERS = {
  // entry points
  main: { path: '^src/main\\.ts$', may: ['cli', 'core', 'lib', 'owner-only-umask'] }, // core: the preview renderer's entry
  // the preview renderer's entry point from source: the renderer's modules only
  'renderer-main': { path: '^src/renderer-main\\.ts$', may: ['core', 'owner-only-umask'] },
  cli: { path: '^src/cli/', may: ['app', 'open-context', 'maintenance', 'core', 'http', 'assets', 'data-dir', 'db', 'storage', 'config', 'errors', 'lib', 'log', 'shared', 'version'] },
  app: { path: '^src/app\\.ts$', may: ['routes', 'http', 'assets', 'core', 'config', 'errors', 'lib', 'log', 'shared', 'version'] },
  'open-context': { path: '^src/open-context\\.ts$', may: ['core', 'data-dir', 'db', 'storage', 'config', 'errors', 'lib', 'log'] },
  // the operator's work on a whole install (backup, restore, verify, sweeps, migrations), for the CLI and the server's start
  maintenance: { path: '^src/maintenance/', may: ['core', 'data-dir', 'db', 'storage', 'config', 'errors', 'lib', 'log', 'shared', 'version'] },
  // HTTP adapters, one folder an area of the API or the pages: routes, request and response schemas, HTML answers;
  // they never import each other (rule routes-are-independent)
  routes: { path: '^src/routes/', may: ['http', 'assets', 'core', 'data-dir', 'db', 'storage', 'config', 'errors', 'lib', 'log', 'shared', 'version'] },
  // what every route uses besides the core
  http: { path: '^src/http/', may: ['core', 'storage', 'config', 'errors', 'lib', 'log', 'shared'] },
  assets: { path: '^src/assets/', may: ['errors', 'lib'] },
  // every concept's logic, one folder each (files, links, share, accounts, ...): services, jobs, presenters, rules.
  // It takes the shapes of what it receives and answers from the routes' schemas, as types only (rule
  // core-takes-only-types-from-routes): each shape is written once, as a t-schema beside its route.
  core: {
    path: '^src/core/',
    may: ['data-dir', 'db', 'storage', 'config', 'errors', 'lib', 'log', 'shared', 'version'],
    alsoMay: ['^src/routes/[^/]+/(model|input)\\.ts$'], // the routes' schemas, as types
  },
  // storage and the database
  'data-dir': { path: '^src/data-dir/', may: ['db', 'storage', 'config', 'errors', 'lib', 'shared'] },
  db: { path: '^src/db/', may: ['errors', 'lib', 'shared'] },
  storage: { path: '^src/storage/', may: ['errors', 'lib', 'shared'] },
  // leaves
  config: { path: '^src/config/', may: ['errors', 'lib', 'shared'] },
  errors: { path: '^src/errors\\.ts$', may: ['lib', 'shared'] },
  lib: { path: '^src/lib/', may: ['shared'] },
  log: { path: '^src/log\\.ts$', may: ['lib'] },
  version: { path: '^src/version\\.ts$', may: [] },
  'owner-only-umask': { path: '^src/owner-only-umask\\.ts$', may: [] },
  shared: { path: '^src/shared/', may: [] }, // bundled by the dashboard too: constants and the types derived from them
  types: { path: '^src/[^/]+\\.d\\.ts$', may: [] }, // ambient declarations (file imports)
}

const layerRules = Object.entries(LAYERS).map(([name, layer]) => ({
  name: `${name}-imports-only-below`,
  comment: `${name} may import only ${layer.may.length > 0 ? layer.may.join(', ') : 'nothing else of src/'}`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: '^src/', pathNot: [layer.path, ...layer.may.map((below) => LAYERS[below].path), ...(layer.alsoMay ?? [])] },
}))

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two files one unit that cannot be understood, tested or moved apart (in the server and the front ends).',
      severity: 'error',
      from: { path: '^(src|viewer)/' },
      to: { circular: true },
    },
    {
      name: 'routes-are-independent',
      comment: 'A folder of routes never imports another; what two need lives in core (logic) or http (HTTP plumbing).',
      severity: 'error',
      from: { path: '^src/routes/([^/]+)/' },
      to: { path: '^src/routes/', pathNot: '^src/routes/$1/' },
    },
    {
      name: 'core-takes-only-types-from-routes',
      comment:
        "The core may name the shapes the routes' schemas define (what a service takes and a presenter answers), as types: " +
        'they are gone at run time, so no route, schema or Elysia runs under the core.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/routes/', dependencyTypesNot: ['type-only'] },
    },
    ...layerRules,
    {
      name: 'services-are-framework-free',
      comment: 'The core and everything below take plain input and return plain results; only routes and http/ know Elysia.',
      severity: 'error',
      from: { path: '^src/(core|storage|db|data-dir|config|lib|shared|maintenance)/' },
      to: { path: '^(node_modules/)?(elysia|@elysiajs)(/|$)' },
    },
    {
      name: 'services-reach-no-elysia-through-another-file',
      comment:
        "Nor through a file that imports it: the routes, their schemas and request checks, or http/'s Elysia parts. " +
        'A service takes input the route has checked; types it may import (they are gone at run time).',
      severity: 'error',
      from: { path: '^src/(core|storage|db|data-dir|config|lib|shared|maintenance)/' },
      to: {
        path: '^src/routes/|^src/http/(auth-guard|check-body|lifecycle|rule-schema|schemas)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'routes-touch-no-sql-or-files',
      comment:
        "A route checks the request, calls a service and shapes the answer; SQL and the filesystem are the core's business (a row's type it may name).",
      severity: 'error',
      from: { path: '^src/routes/' },
      to: { path: '^(src/db/|node_modules/(drizzle-orm|@libsql)/|(node:)?fs(/promises)?$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'viewer-imports-only-shared-and-api-types',
      comment:
        "The front ends run in the browser: of src/ they may bundle only shared/ (the limits and constants both sides check), " +
        "and take the API's types from app.ts (Eden's treaty) and the routes' model.ts files, and the dashboard's message keys from its English catalog. " +
        'Anything else would put server code in the bundle.',
      severity: 'error',
      from: { path: '^viewer/' },
      to: { path: '^src/', pathNot: '^src/(shared/|app\\.ts$|routes/[^/]+/model\\.ts$|core/i18n/dashboard/en\\.json$)' },
    },
    {
      name: 'viewer-takes-only-types-from-the-api',
      comment:
        "app.ts, the models and the dashboard's catalogs are the server's own: the viewer imports their types (`import type`), which the bundle leaves out " +
        '(the page carries the messages of its one language, docs/languages.md).',
      severity: 'error',
      from: { path: '^viewer/' },
      to: { path: '^src/(app\\.ts$|routes/[^/]+/model\\.ts$|core/i18n/dashboard/en\\.json$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'src-never-imports-the-viewer',
      comment: 'The server reaches the built front ends through their manifest (src/assets), never their sources.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^viewer/' },
    },
    {
      name: 'src-never-imports-tests-or-scripts',
      comment: 'The product (server and front ends) does not depend on its tests or tools (the other way round is fine).',
      severity: 'error',
      from: { path: '^(src|viewer)/' },
      to: { path: '^(test|scripts)/' },
    },
    {
      name: 'scripts-never-import-tests',
      comment: 'What scripts and tests share lives in scripts/support, which tests may import.',
      severity: 'error',
      from: { path: '^scripts/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API for dependency-cruiser to use; swc parses the sources instead.
    parser: 'swc',
    // `import type` counts: a type import is as much a dependency for whoever reads or moves the code.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '^node_modules/' },
    exclude: { path: '^src/db/migrations/' }, // generated SQL and its index
  },
}
