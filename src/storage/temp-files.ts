import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'

/** An upload being written: appended to, made durable, closed. */
export type TempFile = {
  readonly path: string
  write(chunk: Uint8Array): Promise<void>
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

export function createLocalTempFiles(dir: string): TempFiles {
  return {
    async create(name) {
      const path = join(dir, name)
      const handle = await open(path, 'wx', 0o600)
      let closed = false
      const close = async () => {
        if (closed) return
        closed = true
        await handle.close()
      }
      return {
        path,
        async write(chunk) {
          for (let offset = 0; offset < chunk.length; ) offset += (await handle.write(chunk, offset)).bytesWritten
        },
        sync: () => handle.sync(),
        close,
        async discard() {
          await close().catch(() => {})
          await rm(path, { force: true })
        },
      }
    },
  }
}
