import { join } from 'node:path'

/** The argument that makes the pdfshare executable (or src/main.ts) run as a preview renderer. */
export const RENDERER_ARGUMENT = '__preview-renderer'

/**
 * Server → renderer: render page 1 of the PDF at `pdfPath` into a PNG link card at `outPath` (`card`), page
 * `page` (1-based) into a WebP per width in `widths`, each at its path in `outPaths` (`page`, drawn once), or
 * only count its pages (`pages`), or write the text and links of page `page` as JSON at `outPath` (`text`, page-text.ts,
 * page-links.ts), or every page's plain text as a JSON array of strings at `outPath` (`texts`, what core/search
 * indexes), or the PDF's outline (`outline`, pdf-outline.ts).
 * `sizes`: answer every page's size too (always for `card` and `pages`). `stamp`: write the PDF with the watermark
 * `text` drawn on every page at `outPath`; `overlay`: draw `text` as a watermark over a transparent `width` ×
 * `height` image, a PNG at `outPath` (draw-watermark.ts, watermarks.ts); `watermark`: lay the overlay at
 * `overlayPath` over the page image at `imagePath` (the server's copy, in the scratch folder), a WebP at `outPath`
 * (lay-watermark.ts). The last two open no PDF (`pdfPath` is empty).
 */
export type RenderJob = {
  id: number
  kind: 'card' | 'pages' | 'page' | 'text' | 'texts' | 'outline' | 'stamp' | 'overlay' | 'watermark'
  pdfPath: string
  outPath?: string
  page?: number
  widths?: number[]
  outPaths?: string[]
  sizes?: boolean
  text?: string
  width?: number
  height?: number
  imagePath?: string
  overlayPath?: string
  memoryLimit: number
}

/**
 * Renderer → server: once when it is ready, then one answer per job, with the PDF's page count when it opened
 * and, where the job asked for them, its pages' sizes (page-sizes.ts).
 */
export type RendererMessage =
  | { ready: true }
  | { id: number; ok: true; pages: number; sizes?: string }
  | { id: number; ok: false; reason: string }

/**
 * How to start a renderer: the binary runs itself; from source, Bun runs the renderer's own entry point
 * (renderer-main.ts, which loads only the renderer's modules). The argument names the process in `ps` either way.
 */
export function rendererCommand(): string[] {
  return Bun.isStandaloneExecutable
    ? [process.execPath, RENDERER_ARGUMENT]
    : [process.execPath, join(import.meta.dir, '..', '..', 'renderer-main.ts'), RENDERER_ARGUMENT]
}
