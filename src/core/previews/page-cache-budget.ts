import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The disk the page images and texts of one data dir may take (PDFSHARE_PAGE_CACHE_SIZE): every kept page file
 * is known with its size and when it was last served; when a new one takes the total past the budget, the
 * least recently served go until the total is back under nine tenths of it (so a full cache does not delete
 * on every draw). Link cards are not counted: one per PDF, they go with their PDF. The files on disk at start
 * are counted by their modification time. What is deleted is drawn again when asked for.
 */
export type PageCacheBudget = {
  /** A page file was served from the cache: it is the most recently used. */
  used(path: string): void
  /** A page file was written: counted, and the oldest ones go if the budget is passed. */
  written(path: string): void
  /** A page file was deleted by someone else (its PDF went): no longer counted. */
  removed(path: string): void
  /** Bytes the page files take now. */
  readonly bytes: number
}

/** Which files of the previews folder are pages' images, texts and their marks (`<blobKey>.p<n>…`). */
const PAGE_FILE = /^[^.]+\.p\d+[-.]/

export function pageCacheBudget(folder: string, maxBytes: number): PageCacheBudget {
  // Insertion order is recency: a use moves the entry to the end, so the first entries are the oldest.
  const files = new Map<string, number>()
  let bytes = 0
  const forget = (path: string) => {
    bytes -= files.get(path) ?? 0
    files.delete(path)
  }
  const sizeOf = (path: string) => {
    try {
      return statSync(path).size
    } catch {
      return undefined
    }
  }
  let names: string[] = []
  try {
    names = readdirSync(folder)
  } catch {
    // no folder yet: nothing is kept
  }
  const found = names
    .filter((name) => PAGE_FILE.test(name) && !name.endsWith('.tmp'))
    .map((name) => {
      const path = join(folder, name)
      try {
        const stat = statSync(path)
        return { path, size: stat.size, at: stat.mtimeMs }
      } catch {
        return undefined
      }
    })
    .filter((entry) => entry !== undefined)
    .sort((a, b) => a.at - b.at)
  for (const { path, size } of found) {
    files.set(path, size)
    bytes += size
  }
  const evict = (keep: string) => {
    if (bytes <= maxBytes) return
    for (const path of files.keys()) {
      if (bytes <= maxBytes * 0.9) break
      if (path === keep) continue
      rmSync(path, { force: true })
      forget(path)
    }
  }
  return {
    used(path) {
      const size = files.get(path)
      if (size === undefined) return
      files.delete(path)
      files.set(path, size)
    },
    written(path) {
      const size = sizeOf(path)
      forget(path)
      if (size === undefined) return
      files.set(path, size)
      bytes += size
      evict(path)
    },
    removed: forget,
    get bytes() {
      return bytes
    },
  }
}
