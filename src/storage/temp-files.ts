import { open, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** An upload being written: appended to, made durable, closed. */
export type TempFile = {
  readonly path: string
  /**
   * Appends `chunk` (copied; the caller may reuse it). The bytes may still be on their way to the disk when
   * the promise resolves, so the caller can go on hashing and parsing; a write that failed in the background
   * fails the next write or `sync`.
   */
  write(chunk: Uint8Array): Promise<void>
  /** Everything written reaches the file and the disk (fsync); throws the first write error, if any. */
  sync(): Promise<void>
  close(): Promise<void>
  /** Closes (if needed) and deletes it; never throws. */
  discard(): Promise<void>
}

/**
 * Where uploads are written while they arrive: always a local folder inside the data dir (also when blobs
 * move to an object store), so a half-written upload is never visible under a blob key.
 */
export type TempFiles = { create(name: string): Promise<TempFile> }

/**
 * Chunks are copied into one of two 1 MiB buffers; a full buffer is written (on the thread pool) while the
 * other fills. One write per MiB instead of one per 64 KiB request chunk, the disk write overlaps the hashing
 * and multipart parsing of what follows, and memory stays at two buffers per upload (handing the request's
 * own chunks to writev instead made Bun copy them (BENCHMARKS.md, Design measurements)).
 */
const BUFFER_BYTES = 1024 * 1024
/**
 * Every this many bytes an fdatasync starts in the background, so the kernel writes the upload out while it
 * still arrives and the final fsync (before the upload is acknowledged) has little left to do.
 */
const EARLY_SYNC_BYTES = 16 * 1024 * 1024

export function createLocalTempFiles(dir: string): TempFiles {
  return {
    async create(name) {
      const path = join(dir, name)
      const handle = await open(path, 'wx', 0o600)
      const buffers = [new Uint8Array(BUFFER_BYTES), new Uint8Array(BUFFER_BYTES)]
      let filling = 0
      let filled = 0
      let inFlight: Promise<void> = Promise.resolve()
      let unsynced = 0
      let earlySync: Promise<void> = Promise.resolve()
      let closed = false

      const writeAll = async (bytes: Uint8Array) => {
        for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset)).bytesWritten
      }
      /** Starts writing the filled buffer once the previous write is done (whose error surfaces here). */
      const flush = async () => {
        await inFlight
        if (filled === 0) return
        inFlight = writeAll(buffers[filling]!.subarray(0, filled))
        inFlight.catch(() => {}) // observed by the next flush; never an unhandled rejection meanwhile
        unsynced += filled
        filling = 1 - filling
        filled = 0
        if (unsynced >= EARLY_SYNC_BYTES) {
          unsynced = 0
          // Only a head start: its outcome does not matter, the final sync() is the one that is checked.
          const written = inFlight
          earlySync = earlySync
            .then(() => written)
            .then(() => handle.datasync())
            .catch(() => {})
        }
      }
      const close = async () => {
        if (closed) return
        closed = true
        await inFlight.catch(() => {})
        await earlySync
        await handle.close()
      }
      return {
        path,
        async write(chunk) {
          for (let offset = 0; offset < chunk.length; ) {
            const taken = Math.min(chunk.length - offset, BUFFER_BYTES - filled)
            buffers[filling]!.set(chunk.subarray(offset, offset + taken), filled)
            filled += taken
            offset += taken
            if (filled === BUFFER_BYTES) await flush()
          }
        },
        async sync() {
          await flush()
          await inFlight
          await handle.sync()
        },
        close,
        async discard() {
          await close().catch(() => {})
          await rm(path, { force: true })
        },
      }
    },
  }
}

/**
 * Removes everything left in the temp-files folder; returns how many entries there were. Anything there
 * before the server accepts requests is a leftover of an upload (or a blob store's streamed copy) that a
 * crash or kill interrupted. Only the server calls this, at start; every other removal of a temp file goes
 * through its TempFile's `discard`.
 */
export async function removeLeftoverTempFiles(dir: string, options: { untouchedForMs?: number; now?: number } = {}): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[])
  const { untouchedForMs = 0, now = Date.now() } = options
  const leftovers: string[] = []
  for (const name of names) {
    // Another instance sharing this data dir may be writing it: only a file nobody has written for a while is left over.
    const touched =
      untouchedForMs > 0
        ? await stat(join(dir, name)).then(
            (info) => info.mtimeMs,
            () => undefined,
          )
        : undefined
    if (touched === undefined || now - touched >= untouchedForMs) leftovers.push(name)
  }
  await Promise.all(leftovers.map((name) => rm(join(dir, name), { force: true, recursive: true })))
  return leftovers.length
}
