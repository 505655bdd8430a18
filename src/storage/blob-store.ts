import type { ExpectedBytes } from './expected-bytes'

/**
 * Where PDF bytes live. The local filesystem is the default (local-blob-store.ts); an S3-compatible bucket is
 * the second backend (s3-blob-store.ts). Everything that touches bytes goes through this interface —
 * uploads, downloads, previews, verify, backup, restore, the start-up sweep — and callers only ever see keys,
 * never paths.
 *
 * Durability contract of every implementation: `put` returns only when the blob is durable under its key,
 * and a key is either absent or holds the complete blob, never a part of it. Blobs are immutable: a key is
 * written once (a replacement gets a new key).
 */
export interface BlobStore {
  /** The blob's size, or undefined when there is no blob under `key`. */
  stat(key: string): Promise<BlobStat | undefined>
  /** The blob's bytes, or those of `range`, as a stream; a missing blob errors the stream (ENOENT for the local store). */
  read(key: string, range?: ByteRange): ReadableStream<Uint8Array>
  /**
   * The blob's bytes, or those of `range`, as a Response body, in the form the backend sends fastest: the
   * local store gives a lazy file handle, which Bun.serve sends with sendfile(2) without reading it into the
   * process; an object store gives the stream of a ranged GET (not Bun's S3File itself: as a body, Bun answers
   * it with a redirect to a presigned URL, without our headers). The caller sets every header itself.
   */
  body(key: string, range?: ByteRange): BodyInit | Promise<BodyInit>
  /**
   * A readable local file with the blob's bytes, for a program that wants a path (the preview renderer).
   * The local store hands out the blob's own path (no copy; it may not exist); an object store downloads a
   * temporary copy. Call `release` when done with it.
   */
  localFile(key: string): Promise<LocalBlobFile>
  /** Stores the bytes of `source` under `key`; see BlobSource for who owns what afterwards. */
  put(key: string, source: BlobSource): Promise<void>
  /** Removes a blob; removing a missing key is not an error. */
  delete(key: string): Promise<void>
  /** Every key present, for the start-up sweep, verify and the data dir pairing check. */
  keys(): AsyncIterable<string>
  /**
   * Takes a blob out of the store without destroying it (the local store: into the data dir's `orphans/`
   * folder), so a blob the start-up sweep wrongly took for a leftover can still be put back by hand.
   */
  moveAside(key: string): Promise<void>
  /** Lets go of what the store keeps besides the blobs (an object store's local copies); the process is stopping. */
  close?(): void
  /**
   * Whether the store answers, as its latest requests found it (an object store: `degraded` after a request timed
   * out or was refused with a 5xx, until one succeeds); for /api/health, so it never waits. The local disk has none.
   */
  health?(): 'ok' | 'degraded'
}

/**
 * `modifiedAt`: when the blob was stored (ms; the object's Last-Modified, which for an S3 multipart upload is when
 * the upload began), so a sweep shared by several instances can leave young blobs alone.
 */
export type BlobStat = { size: number; modifiedAt: number }

/** Bytes `start` (inclusive) to `end` (exclusive), as Blob.slice counts them. */
export type ByteRange = { start: number; end: number }

export type BlobSource =
  /**
   * A complete, fsync'd local file: a finished upload. The store takes it over: the local store renames it
   * into place (so it must be on the same filesystem: the data dir's tmp/), another store uploads and removes
   * it. The caller may still remove the path afterwards; it is gone or never was the blob's.
   */
  | { file: string }
  /**
   * Bytes to copy in. An error from the stream, even at its very end, stores nothing under the key; so do
   * bytes that are not `expected` (the put fails with a BlobMismatch: expected-bytes.ts).
   */
  | { stream: ReadableStream<Uint8Array>; expected?: ExpectedBytes }

export type LocalBlobFile = { path: string; release(): Promise<void> }
