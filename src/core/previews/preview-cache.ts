import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Rendered link-preview cards on the local disk (`data/previews`), by blob key: a replacement writes a new
 * blob, so it gets a new card, and the old card goes with the old blob. A cache: anything in it may be
 * deleted. Handed to services on the context, so that whoever removes a blob (discardBlob,
 * the start-up sweep) drops its card too.
 */
export type PreviewCache = {
  /** Where a blob's card is cached; `failed` is the mark (holding the reason) of a blob that could not be rendered. */
  pathOf(blobKey: string, kind?: 'png' | 'failed'): string
  /** Drops a blob's card and mark; called whenever the blob itself goes. */
  discard(blobKey: string): Promise<void>
  /** Drops the cards and marks of every blob not in `keep` (the start-up sweep). */
  discardAllBut(keep: ReadonlySet<string>): Promise<void>
}

export function previewCacheIn(folder: string): PreviewCache {
  const pathOf = (blobKey: string, kind: 'png' | 'failed' = 'png') => join(folder, `${blobKey}.${kind}`)
  const discard = async (blobKey: string) => {
    await rm(pathOf(blobKey), { force: true })
    await rm(pathOf(blobKey, 'failed'), { force: true })
  }
  return {
    pathOf,
    discard,
    async discardAllBut(keep) {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const key = name.split('.')[0] ?? ''
        if (!keep.has(key)) await discard(key)
      }
    },
  }
}
