import { stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { BlobStore } from './blob-store'
import { blobPathOf, keysIn, slice } from './local-blob-store'
import { whyNotRegularFile } from './regular-file'

/** A blob that is there but is not a regular file reached through real folders (`reason` says what it is). */
export class RefusedBlob extends Error {
  override name = 'RefusedBlob'
  constructor(readonly reason: string) {
    super(`the blob ${reason}`)
  }
}

/**
 * A local blob folder someone else may have prepared: a backup being restored. It may come from another
 * machine, and restore may run as a user who can read more than the backup's author, so a blob is read only
 * when it is a regular file reached through real folders: a symbolic link (to a root-only file, say), a
 * device or a fifo is refused with RefusedBlob, never followed. Nothing is ever written to it.
 */
export function openUntrustedBlobFolder(root: string): BlobStore {
  const pathOf = (key: string) => join(root, blobPathOf(key))
  /** false when the blob is absent; throws RefusedBlob when it is not a regular file. */
  const isRegular = async (key: string) => {
    // Named from the folder's parent, so a reason reads "is inside blobs/ab, …" like the backup's own layout.
    const problem = await whyNotRegularFile(dirname(root), join(basename(root), blobPathOf(key)))
    if (problem === 'missing') return false
    if (problem) throw new RefusedBlob(problem)
    return true
  }
  const checkedStream = (key: string, range: Parameters<BlobStore['read']>[1]) =>
    streamAfter(async () => {
      await isRegular(key) // an absent blob: the file's own stream errors with ENOENT
      return slice(Bun.file(pathOf(key)), range).stream()
    })
  const readOnly = async () => {
    throw new Error('a blob folder being restored from is never written to')
  }

  return {
    async stat(key) {
      if (!(await isRegular(key))) return undefined
      const info = await stat(pathOf(key))
      return { size: info.size, modifiedAt: info.mtimeMs }
    },
    read: checkedStream,
    body: checkedStream,
    async localFile(key) {
      await isRegular(key)
      return { path: pathOf(key), release: async () => {} }
    },
    put: readOnly,
    delete: readOnly,
    moveAside: readOnly,
    keys: () => keysIn(root),
  }
}

/** A stream whose source is opened (and checked) when the first bytes are asked for. */
function streamAfter(open: () => Promise<ReadableStream<Uint8Array>>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= (await open()).getReader()
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel(reason) {
      return reader?.cancel(reason)
    },
  })
}
