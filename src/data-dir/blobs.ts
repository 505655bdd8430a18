import type { BlobStore } from '../storage/blob-store'
import { createLocalBlobStore } from '../storage/local-blob-store'
import type { DataDirLayout } from './layout'

/**
 * The blob store of a data dir, or of a folder laid out like one (a backup being written, a restore's
 * staging dir): blobs in `blobs/`, streamed puts written in `tmp/` first (swept at start), orphans moved
 * to `orphans/`.
 */
export function blobStoreOf(layout: DataDirLayout): BlobStore {
  return createLocalBlobStore({ root: layout.blobs, tempDir: layout.tmp, asideDir: layout.orphans })
}
