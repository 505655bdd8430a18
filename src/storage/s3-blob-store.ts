import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { S3Client } from 'bun'
import { randomId } from '../lib/ids'
import type { BlobStore, ByteRange } from './blob-store'
import { bytesChecker, type ExpectedBytes } from './expected-bytes'
import { createLocalCopies } from './local-copies'
import { checkedBlobKey } from './local-blob-store'
import { s3Requests, type S3Timeouts, StoreUnavailable } from './s3-requests'

export type S3BlobStoreOptions = {
  /** A client for the bucket (Bun's built-in S3 client: endpoint, bucket, region, keys, path style); it signs every request and lists. */
  client: S3Client
  /** How long a request may wait for the store (s3-requests.ts); 5 s to answer, 30 s without progress by default. */
  timeouts?: S3Timeouts
  /** Put before every object name, so that several stores (or other data) can share a bucket; '' or ending in '/'. */
  prefix?: string
  /** Where `localFile` downloads a blob to: the data dir's tmp/ (swept at start). */
  tempDir: string
  /** Keys asked for per list request (S3's maximum and default: 1000). */
  pageSize?: number
  /** Bytes of local copies to keep (local-copies.ts), in `copiesDir`; 0 or absent: none, every read goes to the bucket. */
  copiesBytes?: number
  copiesDir?: string
  now?: () => number
}

/** The largest range read from the bucket into memory (beyond it, from a local copy). */
const BUFFERED_RANGE = 256 * 1024
const DEFAULT_TIMEOUTS: S3Timeouts = { connectMs: 5000, idleMs: 30_000 }
/** How long an observation of the store's health stands before /api/health looks again. */
const HEALTH_FRESH_MS = 10_000

/**
 * Blobs as objects in an S3-compatible bucket (AWS S3, Ceph's radosgw, MinIO…), laid out as
 *
 *   <prefix>blobs/<key>.pdf     a blob
 *   <prefix>orphans/<key>.pdf   a blob moveAside took out of the store
 *
 * An S3 object becomes visible only once its upload is complete, so a key never shows part of a blob. A put from
 * a stream checks the bytes on their way out and errors the stream before its end if they are not the expected
 * ones: the upload is then never completed, and nothing is stored (tested on radosgw). Every request has the
 * store's time limits (s3-requests.ts): a bucket that stops answering makes a put, a read or a stat fail with
 * StoreUnavailable within them, never hang, and a put cut short stores nothing.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { prefix = '', tempDir, pageSize = 1000, copiesBytes = 0, copiesDir = join(tempDir, '..', 'copies'), now = Date.now } = options
  if (prefix !== '' && !prefix.endsWith('/')) throw new Error(`an S3 prefix must end with "/"`)
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS
  const { client } = options
  const { request, health } = s3Requests(client, timeouts, now)
  const blobs = `${prefix}blobs/`
  const nameOf = (key: string) => `${blobs}${checkedBlobKey(key)}.pdf`

  /** A GET of the blob's bytes (or a range): its answer, or the error of a missing blob. */
  const get = async (key: string, range?: ByteRange) => {
    const response = await request('GET', nameOf(key), { range })
    if (response.status === 404) throw new Error(`no blob ${key} in the bucket (NoSuchKey)`)
    if (!response.ok) throw new Error(`the S3 store answered ${response.status} to GET ${nameOf(key)}`)
    return response
  }
  const download = async (key: string, path: string) => {
    await (await open(path, 'wx', 0o600)).close() // owner-only from the start
    await Bun.write(path, await get(key))
  }
  /** A single PUT of a stream of known length (S3 wants the length; an aborted PUT of it stores nothing). */
  const putStream = async (name: string, stream: ReadableStream<Uint8Array>, length: number) => {
    const response = await request('PUT', name, { body: stream, length })
    if (!response.ok) throw new Error(`the S3 store answered ${response.status} to PUT ${name}`)
  }
  /** A PUT of a local file, whose length is known. */
  const putFile = (name: string, path: string) => {
    const file = Bun.file(path)
    return putStream(name, file.stream(), file.size)
  }
  /**
   * A stream of unknown length (backup, restore, migrations) goes to a temp file first, checked on the way: a
   * source that fails or brings other bytes than expected is refused before anything is sent, and the PUT then
   * has its length.
   */
  const putSpooled = async (name: string, stream: ReadableStream<Uint8Array>) => {
    const path = join(tempDir, `${randomId(8)}.put`)
    try {
      await (await open(path, 'wx', 0o600)).close()
      await Bun.write(path, new Response(stream))
      await putFile(name, path)
    } finally {
      await rm(path, { force: true })
    }
  }
  const copies = copiesBytes > 0 ? createLocalCopies({ folder: copiesDir, maxBytes: copiesBytes, download }) : undefined

  const read = (key: string, range?: ByteRange) => lazyStream(async () => (await get(key, range)).body ?? new ReadableStream())

  let probing: Promise<void> | undefined
  const probe = () => {
    probing ??= request('HEAD', `${blobs}health-probe`)
      .then(
        () => {},
        () => {},
      )
      .finally(() => (probing = undefined))
  }

  return {
    async stat(key) {
      const response = await request('HEAD', nameOf(key))
      if (response.status === 404) return undefined
      if (!response.ok) throw new Error(`the S3 store answered ${response.status} to HEAD ${nameOf(key)}`)
      const modified = response.headers.get('last-modified')
      return { size: Number(response.headers.get('content-length')), modifiedAt: modified ? Date.parse(modified) : now() }
    },
    read,
    /**
     * Not a stream when there are copies, since Bun sends a stream without its length: a whole PDF comes from its
     * local copy (made now if need be), a file Bun sends with its length; so does a range, from the copy when there
     * is one, and otherwise a small range (a viewer's 64 KiB reads: a reader's first page does not wait for the
     * whole file) is read from the bucket into memory, and a larger one from a new copy.
     */
    async body(key, range) {
      if (!copies) return read(key, range)
      if (range && !copies.has(key) && range.end - range.start <= BUFFERED_RANGE)
        return new Uint8Array(await (await get(key, range)).arrayBuffer())
      const copy = Bun.file((await copies.copyOf(key)).path)
      return range ? copy.slice(range.start, range.end) : copy
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
      if ('file' in source) {
        await putFile(nameOf(key), source.file)
        await rm(source.file, { force: true })
        return
      }
      await putSpooled(nameOf(key), checked(source.stream, source.expected))
    },
    async delete(key) {
      const response = await request('DELETE', nameOf(key))
      if (!response.ok && response.status !== 404) throw new Error(`the S3 store answered ${response.status} to DELETE ${nameOf(key)}`)
    },
    async moveAside(key) {
      // S3 has no rename: a copy, then the delete. A crash in between leaves the blob in both places, never in none.
      const local = join(tempDir, `${randomId(8)}.pdf`)
      try {
        await download(key, local)
        await putFile(`${prefix}orphans/${key}.pdf`, local)
      } finally {
        await rm(local, { force: true })
      }
      await this.delete(key)
    },
    async *keys() {
      let continuationToken: string | undefined
      do {
        const page = await withinTime(client.list({ prefix: blobs, maxKeys: pageSize, continuationToken }), timeouts)
        for (const { key } of page.contents ?? []) {
          if (key.endsWith('.pdf')) yield key.slice(blobs.length, -'.pdf'.length)
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined
      } while (continuationToken)
    },
    health() {
      const seen = Math.max(health.failedAt ?? 0, health.okAt ?? 0)
      if (now() - seen > HEALTH_FRESH_MS) probe()
      return health.failedAt !== undefined && health.failedAt >= (health.okAt ?? 0) ? 'degraded' : 'ok'
    },
  }
}

/** A stream whose source is opened on its first read: `read` answers at once, the request goes out when it is read. */
function lazyStream(open: () => Promise<ReadableStream<Uint8Array>>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= (await open()).getReader()
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel: (reason) => reader?.cancel(reason),
  })
}

/** A list page, or StoreUnavailable once the time a request may take has passed (Bun's client cannot be aborted). */
function withinTime<T>(work: Promise<T>, timeouts: S3Timeouts): Promise<T> {
  let timer: Timer | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailable('the S3 store did not list its objects in time')),
      timeouts.connectMs + timeouts.idleMs,
    )
  })
  return Promise.race([work, limit]).finally(() => clearTimeout(timer))
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
