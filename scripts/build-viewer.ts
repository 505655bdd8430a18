/**
 * Builds the front ends into viewer/dist: the share-page viewer (viewer/src) and the owner's dashboard
 * (viewer/src/dashboard), each a hashed .js and .css,
 * the self-hosted pdf.js assets it needs (worker, cmaps, standard fonts, wasm decoders, ICC profiles, annotation icons), a
 * gzip and a brotli copy of everything that compresses, and manifest.json, which the server serves from
 * (and only from). `bun run build` embeds viewer/dist in the binary; `bun run start` builds it first.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { extname, join, relative } from 'node:path'
import type { ViewerManifest } from '../src/assets/viewer-assets'

const root = join(import.meta.dir, '..')
export const VIEWER_DIST = join(root, 'viewer', 'dist')
const pdfjs = join(root, 'node_modules', 'pdfjs-dist')
const pdfjsVersion: string = JSON.parse(readFileSync(join(pdfjs, 'package.json'), 'utf8')).version

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.wasm': 'application/wasm',
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
  '.ttf': 'font/ttf',
  '.icc': 'application/vnd.iccprofile',
}

export async function buildViewer(): Promise<ViewerManifest> {
  rmSync(VIEWER_DIST, { recursive: true, force: true })
  mkdirSync(VIEWER_DIST, { recursive: true })

  // The share page's own stylesheet (small, render-blocking: page 1 and the toolbar need it) is built on its own;
  // the viewer bundle's stylesheet is then pdf.js's alone (400 KB), which the viewer loads once page 1 is painted.
  const viewer = await bundle('viewer', join(root, 'viewer', 'src', 'main.ts'))
  const script = produced(viewer.script, "viewer's script")
  const pdfjsStyle = produced(viewer.style, "pdf.js's stylesheet")
  const style = produced((await bundle('page', join(root, 'viewer', 'src', 'viewer.css'))).style, "share page's stylesheet")
  const boot = produced((await bundle('boot', join(root, 'viewer', 'src', 'boot.ts'))).script, 'boot script')
  const sender = produced((await bundle('sender', join(root, 'viewer', 'src', 'sender.ts'))).script, "file request page's script")
  const built = await bundle('dashboard', join(root, 'viewer', 'src', 'dashboard', 'main.tsx'))
  const dashboard = { script: produced(built.script, "dashboard's script"), style: produced(built.style, "dashboard's stylesheet") }

  const faviconBytes = readFileSync(join(root, 'viewer', 'src', 'favicon.svg'))
  const favicon = `favicon-${new Bun.CryptoHasher('sha256').update(faviconBytes).digest('hex').slice(0, 8)}.svg`
  writeFileSync(join(VIEWER_DIST, favicon), faviconBytes)

  // pdf.js assets, minus what this viewer never loads (the scripting sandbox's quickjs).
  const pdfjsDir = `pdfjs-${pdfjsVersion}`
  const copy = (from: string, to: string, filter: (name: string) => boolean = () => true) =>
    cpSync(join(pdfjs, from), join(VIEWER_DIST, pdfjsDir, to), {
      recursive: true,
      filter: (source) => filter(source) && !/LICENSE/.test(source),
    })
  copy('build/pdf.worker.min.mjs', 'pdf.worker.min.mjs')
  copy('cmaps', 'cmaps')
  copy('standard_fonts', 'standard_fonts')
  copy('iccs', 'iccs')
  copy('wasm', 'wasm', (source) => !/quickjs/.test(source))
  // The icons pdf.js's annotation layer puts in <img> tags (sticky notes, file attachments), requested from the
  // viewer's imageResourcesPath; the images of pdf_viewer.css are inlined into the stylesheet by the bundler.
  copy('web/images', 'images', (source) => !/\.\w+$/.test(source) || /\/annotation-[\w-]+\.svg$/.test(source))

  const files: ViewerManifest['files'] = {}
  for (const path of walk(VIEWER_DIST)) {
    const name = relative(VIEWER_DIST, path)
    const bytes = readFileSync(path)
    const encodings: ('br' | 'gzip')[] = []
    // Only keep a compressed copy when it saves at least a tenth (cmaps, for one, are already compact).
    const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
    if (brotli.length < bytes.length * 0.9) {
      writeFileSync(`${path}.br`, brotli)
      encodings.push('br')
    }
    const gzip = gzipSync(bytes, { level: 9 })
    if (gzip.length < bytes.length * 0.9) {
      writeFileSync(`${path}.gz`, gzip)
      encodings.push('gzip')
    }
    files[name] = { type: TYPES[extname(name)] ?? 'application/octet-stream', size: bytes.length, encodings }
  }
  const manifest: ViewerManifest = { script, boot, style, pdfjsStyle, sender, dashboard, favicon, pdfjs: pdfjsDir, files }
  writeFileSync(join(VIEWER_DIST, 'manifest.json'), JSON.stringify(manifest, null, 1))
  return manifest
}

/** One entry point (a front end, the share page's boot script, a stylesheet) → its hashed script and/or stylesheet. */
async function bundle(name: string, entry: string): Promise<{ script?: string; style?: string }> {
  const result = await Bun.build({
    entrypoints: [entry],
    outdir: VIEWER_DIST,
    target: 'browser',
    format: 'esm',
    minify: true,
    sourcemap: 'none',
    naming: { entry: `${name}-[hash].[ext]`, asset: `${name}-assets/[name]-[hash].[ext]` },
  })
  if (!result.success) throw new AggregateError(result.logs, `${name} build failed`)
  const outputs = result.outputs.map((output) => relative(VIEWER_DIST, output.path))
  return { script: outputs.find((path) => path.endsWith('.js')), style: outputs.find((path) => path.endsWith('.css')) }
}

/** What a build must have produced, or why it stops. */
function produced<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the build produced no ${what}`)
  return value
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else if (statSync(path).isFile()) yield path
  }
}

if (import.meta.main) {
  const started = performance.now()
  const manifest = await buildViewer()
  const count = Object.keys(manifest.files).length
  console.log(
    `viewer built: ${manifest.script}, ${manifest.style} and ${count} files in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
}
