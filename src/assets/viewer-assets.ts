import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** What scripts/build-viewer.ts wrote next to the built files. */
export type ViewerManifest = {
  /** The share page's viewer, which `boot` runs once page 1 is painted. */
  script: string
  /** The share page's script tag: a few lines that run `script` once page 1 is painted. */
  boot: string
  /** The share page's own stylesheet (also the gate and message pages'): small, in the head. */
  style: string
  /** pdf.js's viewer stylesheet, which the share page's script loads once page 1 is painted. */
  pdfjsStyle: string
  /** A file request's page (/u/<slug>): its drop zone, progress per file (the page's form works without it). */
  sender: string
  /** The owner's dashboard at /app. */
  dashboard: { script: string; style: string }
  favicon: string
  pdfjs: string
  files: Record<string, { type: string; size: number; encodings: ('br' | 'gzip')[] }>
}

export type ViewerAssets = {
  manifest: ViewerManifest
  /** The response for an asset path (relative to /assets/), or undefined when it is not one of ours. */
  serve(request: Request, path: string): Response | undefined
}

/**
 * viewer/dist is embedded in the binary (compile `assets`), where Bun 1.4 keeps only the folder's last
 * segment: `<import.meta.dir>/dist`. From source it is the folder in the repository, built by
 * `bun run build:viewer` (which `start`, `dev`, `build` and `test` run).
 */
export function viewerDistDir(): string {
  return Bun.isStandaloneExecutable ? join(import.meta.dir, 'dist') : join(import.meta.dir, '..', '..', 'viewer', 'dist')
}

/**
 * pdf.js names a sticky note's icon after the note's /Name, which a PDF may set to anything (Acrobat's own
 * Circle, Star, Cross…, or made-up names); it only ships icons for the standard names. An icon it does not
 * have is answered with the Note icon, as PDF readers draw unknown names, instead of a 404.
 */
const ANNOTATION_ICON = /^(pdfjs-[^/]+\/images\/)annotation-[^/]+\.svg$/

export function loadViewerAssets(dir = viewerDistDir()): ViewerAssets {
  const manifestPath = join(dir, 'manifest.json')
  if (!existsSync(manifestPath)) {
    throw new Error(`the viewer is not built (${manifestPath} is missing); run: bun run build:viewer`)
  }
  const manifest: ViewerManifest = JSON.parse(readFileSync(manifestPath, 'utf8'))

  return {
    manifest,
    serve(request, path) {
      // Only names listed in the manifest are served: no path from a request ever reaches the filesystem.
      if (!Object.hasOwn(manifest.files, path)) {
        const icon = ANNOTATION_ICON.exec(path)
        if (!icon) return undefined
        path = `${icon[1]}annotation-note.svg`
      }
      const entry = manifest.files[path]
      if (!entry) return undefined
      const accepted = request.headers.get('accept-encoding') ?? ''
      const encoding = entry.encodings.find((candidate) => new RegExp(`\\b${candidate}\\b`).test(accepted))
      const suffix = encoding === 'br' ? '.br' : encoding === 'gzip' ? '.gz' : ''
      const headers: Record<string, string> = {
        'content-type': entry.type,
        // Every name carries a content hash or the pdf.js version: safe to cache for a year.
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
        vary: 'Accept-Encoding',
      }
      if (encoding) headers['content-encoding'] = encoding
      // The pdf.js worker decodes JPEG 2000 and JBIG2 images with WebAssembly; a worker takes its CSP from its
      // own response, so only the worker (never the page) is allowed to compile wasm. No eval either way.
      if (path.endsWith('pdf.worker.min.mjs')) {
        headers['content-security-policy'] = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"
      }
      return new Response(Bun.file(join(dir, path + suffix)), { headers })
    },
  }
}
