import { existsSync, renameSync, rmSync } from 'node:fs'
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ObjectFolder } from '../../storage/object-folder'
import { type PageCacheBudget, pageCacheBudget } from './page-cache-budget'

/**
 * Rendered link-preview cards on the local disk (`data/previews`), by blob key: a replacement writes a new
 * blob, so it gets a new card, and the old card goes with the old blob. A cache: anything in it may be
 * deleted. Handed to services on the context, so that whoever removes a blob (discardBlob,
 * the start-up sweep) drops its card too.
 */
export type PreviewCache = {
  /** Where a blob's card is cached; `failed` is the mark (holding the reason) of a blob that could not be rendered. */
  pathOf(blobKey: string, kind?: 'png' | 'failed'): string
  /** Where one page image of a blob is cached (`<blobKey>.p<page>-w<width>.webp`), or its failure mark. */
  pagePathOf(blobKey: string, page: number, width: number, kind: 'webp' | 'failed'): string
  /**
   * Where one page's text and links of a blob are cached (`<blobKey>.p<page>.text-links.json`; the `.text.json`
   * read before links were, is never read again and goes with its blob), or its failure mark.
   */
  textPathOf(blobKey: string, page: number, kind: 'json' | 'failed'): string
  /** Where a blob's outline is cached (`<blobKey>.p0.outline.json`: named as a page file, so kept and dropped as one). */
  outlinePathOf(blobKey: string, kind: 'json' | 'failed'): string
  /**
   * Where a watermarked copy of a blob's PDF for `text` is cached (`<blobKey>.pw-<tag>-<hash of text>.pdf`), or its
   * failure mark; `tag` names its reader (watermarks.ts watermarkTag).
   */
  stampedPathOf(blobKey: string, text: string, kind: 'pdf' | 'failed', tag: string): string
  /** Where the watermark overlay named by `key` (its text and size) is cached for the reader `tag` names: one for every blob. */
  overlayPathOf(key: string, tag: string): string
  /**
   * Drops every watermarked file of the reader `tag` names (their copies of PDFs, their overlays), and those
   * cached before files were tagged, whose reader cannot be told; answers how many went. This disk only: a
   * reader's watermarked files are never shared through the bucket.
   */
  discardReader(tag: string): Promise<number>
  /** A page file (image, text, mark) was served from this cache, or written into it: kept within its budget. */
  pageUsed(path: string): void
  pageWritten(path: string): void
  /** Drops a blob's card, page images and marks; called whenever the blob itself goes. */
  discard(blobKey: string): Promise<void>
  /** Drops the cards and marks of every blob not in `keep` (the start-up sweep; this disk only). */
  discardAllBut(keep: ReadonlySet<string>): Promise<void>
  /**
   * Brings a blob's card or mark from the shared store (the bucket, where every instance finds it) to its
   * local path; false when there is none, or no shared store.
   */
  pull(blobKey: string): Promise<boolean>
  /** Keeps a card or mark just written locally in the shared store too. */
  push(blobKey: string, kind: 'png' | 'failed'): Promise<void>
  /**
   * The same for page 1's images drawn ahead (draw-ahead.ts DRAWN_AHEAD): the instance that took the upload
   * draws them, every other one fetches them from the bucket. Other pages are drawn by each instance that is asked.
   */
  pullFirstPage(blobKey: string, width: number): Promise<boolean>
  pushFirstPage(blobKey: string, width: number): Promise<void>
}

/**
 * Where a page file is drawn before it is kept (keepFirstDrawing): a name of its own, so that two drawings of one
 * page (a reader's and page 1's drawn ahead) never write over each other; `.tmp`, so the budget never counts it.
 */
export const drawingPathOf = (path: string): string => `${path}.${Math.random().toString(36).slice(2, 10)}.tmp`

/**
 * Keeps the page file drawn at `drawing` as `path`, unless one is there already (then it is dropped): a page file,
 * once in the cache, is never written anew under its name. Two drawings of a page differ (page 1 drawn ahead at
 * 2400 px and scaled down is a pixel taller than drawn at 1200): its strong ETag promises the same bytes, and a
 * reader's watermark is drawn for the size it was read at. Synchronous: every writer of the previews folder is
 * this process, and none runs between the check and the rename. True when it was kept.
 */
export function keepFirstDrawing(drawing: string, path: string): boolean {
  if (existsSync(path)) {
    rmSync(drawing, { force: true })
    return false
  }
  renameSync(drawing, path)
  return true
}

/** The widths of page 1 an instance shares through the bucket (draw-ahead.ts DRAWN_AHEAD), to drop them with their PDF. */
export const SHARED_FIRST_PAGE_WIDTHS = [800, 1200, 1800, 2400] as const

/**
 * The cards on this disk, and, with `shared` (blobs in a bucket), in the bucket as well: one instance renders
 * a PDF's card, the others download it instead of rendering it again, and a new instance starts warm.
 */
export function previewCacheIn(folder: string, shared?: ObjectFolder, pageBytes = Number.POSITIVE_INFINITY): PreviewCache {
  const local = localPreviewCache(folder, pageCacheBudget(folder, pageBytes))
  if (!shared) return local
  const nameOf = (blobKey: string, kind: 'png' | 'failed') => `${blobKey}.${kind}`
  const firstPageName = (blobKey: string, width: number) => `${blobKey}.p1-w${width}.webp`
  return {
    ...local,
    async discard(blobKey) {
      await local.discard(blobKey)
      await Promise.all([
        ...(['png', 'failed'] as const).map((kind) => shared.delete(nameOf(blobKey, kind))),
        ...SHARED_FIRST_PAGE_WIDTHS.map((width) => shared.delete(firstPageName(blobKey, width))),
      ])
    },
    async pullFirstPage(blobKey, width) {
      const bytes = await shared.get(firstPageName(blobKey, width))
      if (!bytes) return false
      const path = local.pagePathOf(blobKey, 1, width, 'webp')
      const drawing = drawingPathOf(path)
      await writeFile(drawing, bytes)
      if (keepFirstDrawing(drawing, path)) local.pageWritten(path)
      return true
    },
    async pushFirstPage(blobKey, width) {
      await shared.put(
        firstPageName(blobKey, width),
        new Uint8Array(await readFile(local.pagePathOf(blobKey, 1, width, 'webp'))),
        'image/webp',
      )
    },
    async pull(blobKey) {
      for (const kind of ['png', 'failed'] as const) {
        const bytes = await shared.get(nameOf(blobKey, kind))
        if (bytes) {
          // Written whole under a temporary name, then renamed: a reader never sees half a card.
          const path = local.pathOf(blobKey, kind)
          await writeFile(`${path}.pull`, bytes)
          await rename(`${path}.pull`, path)
          return true
        }
      }
      return false
    },
    async push(blobKey, kind) {
      await shared.put(
        nameOf(blobKey, kind),
        new Uint8Array(await readFile(local.pathOf(blobKey, kind))),
        kind === 'png' ? 'image/png' : 'text/plain',
      )
    },
  }
}

/** Watermarked files named before they carried their reader's tag (`<blobKey>.pw-<digest>.pdf`, `watermark-<digest>.png`). */
const UNTAGGED_WATERMARK = /(^watermark-|\.pw-)[0-9a-f]{32}\.(png|pdf|failed)$/

/** A file-name-safe digest of a text (a reader's address may be in it: only its hash is on disk). */
const digestOf = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex').slice(0, 32)

function localPreviewCache(folder: string, budget: PageCacheBudget): PreviewCache {
  const pathOf = (blobKey: string, kind: 'png' | 'failed' = 'png') => join(folder, `${blobKey}.${kind}`)
  const discard = async (blobKey: string) => {
    await rm(pathOf(blobKey), { force: true })
    await rm(pathOf(blobKey, 'failed'), { force: true })
    // Its page images and texts too, whatever pages and widths were drawn.
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (!name.startsWith(`${blobKey}.p`)) continue
      await rm(join(folder, name), { force: true })
      budget.removed(join(folder, name))
    }
  }
  return {
    pathOf,
    pagePathOf: (blobKey, page, width, kind) => join(folder, `${blobKey}.p${page}-w${width}.${kind}`),
    textPathOf: (blobKey, page, kind) => join(folder, `${blobKey}.p${page}.text-links.${kind}`),
    outlinePathOf: (blobKey, kind) => join(folder, `${blobKey}.p0.outline.${kind}`),
    stampedPathOf: (blobKey, text, kind, tag) => join(folder, `${blobKey}.pw-${tag}-${digestOf(text)}.${kind}`),
    overlayPathOf: (key, tag) => join(folder, `watermark-${tag}-${digestOf(key)}.png`),
    async discardReader(tag) {
      const theirs = (name: string) => name.startsWith(`watermark-${tag}-`) || name.includes(`.pw-${tag}-`) || UNTAGGED_WATERMARK.test(name)
      let removed = 0
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (!theirs(name)) continue
        await rm(join(folder, name), { force: true })
        budget.removed(join(folder, name))
        removed++
      }
      return removed
    },
    pageUsed: budget.used,
    pageWritten: budget.written,
    discard,
    async discardAllBut(keep) {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const key = name.split('.')[0] ?? ''
        if (!keep.has(key)) await discard(key)
      }
    },
    pull: async () => false,
    push: async () => {},
    pullFirstPage: async () => false,
    pushFirstPage: async () => {},
  }
}
