import type { BunFile } from 'bun'

/**
 * Where PDF bytes live. The local filesystem is the default; an S3-compatible store is the planned second
 * backend (contract §8), which is why callers only ever see keys, never paths.
 *
 * Durability contract of every implementation: `put` returns only when the blob is durable under its key,
 * and a key is either absent or holds the complete blob, never a part of it.
 */
export interface BlobStore {
  /** Moves a finished, fsync'd upload file into the store under `key`. */
  put(key: string, uploadPath: string): Promise<void>
  /** A lazy handle on the blob's bytes (supports slice() for ranges and streams without loading it whole). */
  file(key: string): BunFile
  /** Removes a blob; removing a missing key is not an error. */
  delete(key: string): Promise<void>
  /** Every key present, for the start-up sweep of unreferenced blobs. */
  keys(): AsyncIterable<string>
  /**
   * Takes a blob out of the store without destroying it: moves it to `<folder>/<key>.pdf`, a local folder
   * (the start-up sweep's `orphans/`), so a blob wrongly taken for a leftover can still be put back.
   */
  moveAside(key: string, folder: string): Promise<void>
}
