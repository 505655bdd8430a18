import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { createSingleFlight } from '../lib/concurrency'
import { randomId } from '../lib/ids'

/**
 * Local copies of blobs that live elsewhere (an S3 bucket), kept while there is room: a whole PDF answered from
 * a copy goes out as a file, which Bun sends with its Content-Length (a stream it sends chunked, without one,
 * whatever header is set: oven-sh/bun#10507), so clients show progress and a total; and a PDF read again (its
 * readers, its previews) comes from the disk instead of the bucket.
 *
 * The copies of one process live in a folder of their own inside the data dir's `copies/` (instances may share a
 * data dir, and each knows only its own copies), removed when the process closes it; one a killed process left
 * is removed at the next start of a server (as tmp/'s leftovers are). At most `maxBytes` are kept: the least recently
 * used copy goes first, never one used in the last `holdMs` (a response may still be sending it) nor one held.
 */
export type LocalCopies = {
  /** Whether a copy of the blob is kept now. */
  has(key: string): boolean
  /** A local file with the blob's bytes, downloaded first if there is no copy yet; with `hold`, kept until released. */
  copyOf(key: string, options?: { hold?: boolean }): Promise<{ path: string; size: number; release(): void }>
  /** Removes every copy (the process is stopping). */
  close(): void
}

export type LocalCopiesOptions = {
  /** The data dir's copies/ (made when the first copy is). */
  folder: string
  maxBytes: number
  /** Writes the blob's bytes to `path` (a new file). */
  download(key: string, path: string): Promise<void>
  holdMs?: number
  now?: () => number
}

type Copy = { path: string; size: number; usedAt: number; holds: number }

export function createLocalCopies(options: LocalCopiesOptions): LocalCopies {
  const { maxBytes, download, holdMs = 5 * 60_000, now = Date.now } = options
  const folder = join(options.folder, `${process.pid}-${randomId(6)}`)
  const copies = new Map<string, Copy>() // in order of use: the first is the least recently used
  const once = createSingleFlight<Copy>()
  let total = 0

  const evict = async () => {
    for (const [key, copy] of copies) {
      if (total <= maxBytes) return
      if (copy.holds > 0 || now() - copy.usedAt < holdMs) continue
      copies.delete(key)
      total -= copy.size
      await rm(copy.path, { force: true })
    }
  }
  const fetchCopy = async (key: string): Promise<Copy> => {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    const path = join(folder, `${key}.pdf`)
    const partial = `${path}.${randomId(6)}.part`
    try {
      await download(key, partial)
      await rename(partial, path) // a copy is whole or absent
    } catch (error) {
      await rm(partial, { force: true })
      throw error
    }
    const copy = { path, size: (await stat(path)).size, usedAt: now(), holds: 0 }
    copies.set(key, copy)
    total += copy.size
    await evict()
    return copy
  }

  return {
    has: (key) => copies.has(key),
    async copyOf(key, options = {}) {
      let known = copies.get(key)
      if (known && !existsSync(known.path)) {
        // Removed behind this process's back (another instance's start-up took the folder for a leftover).
        copies.delete(key)
        total -= known.size
        known = undefined
      }
      const copy = known ?? (await once(key, () => fetchCopy(key)))
      // Used now: to the end of the order.
      copies.delete(key)
      copies.set(key, copy)
      copy.usedAt = now()
      if (options.hold) copy.holds++
      let released = !options.hold
      return {
        path: copy.path,
        size: copy.size,
        release() {
          if (released) return
          released = true
          copy.holds--
        },
      }
    },
    close() {
      copies.clear()
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
