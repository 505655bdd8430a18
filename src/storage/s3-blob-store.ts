import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { S3Client } from 'bun'
import { randomId } from '../lib/ids'
import type { BlobStore, ByteRange } from './blob-store'
import { bytesChecker, type ExpectedBytes } from './expected-bytes'
import { createLocalCopies } from './local-copies'
import { checkedBlobKey } from './local-blob-store'

export type S3BlobStoreOptions = {
  /** A client for the bucket (Bun's built-in S3 client: endpoint, bucket, region, keys, path style). */
  client: S3Client
  /** Put before every object name, so that several stores (or other data) can share a bucket; '' or ending in '/'. */
  prefix?: string
  /** Where `localFile` downloads a blob to: the data dir's tmp/ (swept at start). */
  tempDir: string
  /** Keys asked for per list request (S3's maximum and default: 1000). */
  pageSize?: number
  /** Bytes of local copies to keep (local-copies.ts), in `copiesDir`; 0 or absent: none, every read goes to the bucket. */
  copiesBytes?: number
  copiesDir?: string
}

/** The largest range read from the bucket into memory (beyond it, from a local copy). */
const BUFFERED_RANGE = 256 * 1024

/**
 * Blobs as objects in an S3-compatible bucket (AWS S3, Ceph's radosgw, MinIO…), laid out as
 *
 *   <prefix>blobs/<key>.pdf     a blob
 *   <prefix>orphans/<key>.pdf   a blob moveAside took out of the store
 *
 * An S3 object becomes visible only once its upload is complete (a single PUT, or a multipart upload's
 * final CompleteMultipartUpload), so a key never shows part of a blob. A put from a stream checks the bytes
 * on their way out and errors the stream before its end if they are not the expected ones: the upload is
 * then never completed, and nothing is stored (tested on radosgw, for a single PUT and for a multipart one).
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { client, prefix = '', tempDir, pageSize = 1000, copiesBytes = 0, copiesDir = join(tempDir, '..', 'copies') } = options
  if (prefix !== '' && !prefix.endsWith('/')) throw new Error(`an S3 prefix must end with "/"`)
  const blobs = `${prefix}blobs/`
  const objectOf = (key: string) => client.file(`${blobs}${checkedBlobKey(key)}.pdf`)
  const download = async (key: string, path: string) => {
    await (await open(path, 'wx', 0o600)).close() // owner-only from the start
    await Bun.write(path, objectOf(key))
  }
  const copies = copiesBytes > 0 ? createLocalCopies({ folder: copiesDir, maxBytes: copiesBytes, download }) : undefined

  const read = (key: string, range?: ByteRange) => slice(objectOf(key), range).stream()

  return {
    async stat(key) {
      try {
        const info = await objectOf(key).stat()
        return { size: info.size, modifiedAt: info.lastModified.getTime() }
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },
    read,
    /**
     * Not the S3File itself: as a body, Bun answers it with a redirect to a presigned URL, without our headers;
     * and not a stream either when there are copies, since Bun sends a stream without its length. A whole PDF
     * comes from its local copy (made now if need be), a file Bun sends with its length; so does a range, from
     * the copy when there is one, and otherwise a small range (a viewer's 64 KiB reads: a reader's first page
     * does not wait for the whole file) is read from the bucket into memory, and a larger one from a new copy.
     */
    async body(key, range) {
      if (!copies) return read(key, range)
      if (range && !copies.has(key) && range.end - range.start <= BUFFERED_RANGE)
        return new Uint8Array(await slice(objectOf(key), range).arrayBuffer())
      return slice(Bun.file((await copies.copyOf(key)).path), range)
    },
    async localFile(key) {
      if (copies) {
        const copy = await copies.copyOf(key, { hold: true })
        return { path: copy.path, release: async () => copy.release() }
      }
      const path = join(tempDir, `${randomId(8)}.pdf`)
      try {
        await download(key, path)
      } catch (error) {
        await rm(path, { force: true })
        throw error
      }
      return { path, release: () => rm(path, { force: true }) }
    },
    close: () => copies?.close(),
    async put(key, source) {
      const object = objectOf(key)
      if ('file' in source) {
        await object.write(Bun.file(source.file))
        await rm(source.file, { force: true })
        return
      }
      await object.write(new Response(checked(source.stream, source.expected)))
    },
    async delete(key) {
      await objectOf(key).delete()
    },
    async moveAside(key) {
      // S3 has no rename: a copy, then the delete. A crash in between leaves the blob in both places, never in none.
      const object = objectOf(key)
      await client.file(`${prefix}orphans/${key}.pdf`).write(object)
      await object.delete()
    },
    async *keys() {
      let continuationToken: string | undefined
      do {
        const page = await client.list({ prefix: blobs, maxKeys: pageSize, continuationToken })
        for (const { key } of page.contents ?? []) {
          if (key.endsWith('.pdf')) yield key.slice(blobs.length, -'.pdf'.length)
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined
      } while (continuationToken)
    },
  }
}

/** The stream, erroring at its end (before the upload completes) if its bytes are not the expected ones. */
function checked(stream: ReadableStream<Uint8Array>, expected: ExpectedBytes | undefined): ReadableStream<Uint8Array> {
  if (!expected) return stream
  const check = bytesChecker(expected)
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        check.update(chunk)
        controller.enqueue(chunk)
      },
      flush: () => check.finish(),
    }),
  )
}

function slice<T extends Blob>(object: T, range: ByteRange | undefined): T {
  return range ? (object.slice(range.start, range.end) as T) : object
}

function isMissing(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'NoSuchKey'
}
