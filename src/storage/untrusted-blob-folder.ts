import { basename, dirname, join } from 'node:path'
import type { BlobStore } from './blob-store'
import { blobPathOf, keysIn, slice } from './local-blob-store'
import { openRegularFile, type OpenedRegularFile, whyNotRegularFile } from './regular-file'

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
  /** The blob opened, if it is a regular file at its place (the file opened is the file checked); RefusedBlob if not. */
  const opened = async (key: string): Promise<OpenedRegularFile | undefined> => {
    // Named from the folder's parent, so a reason reads "is inside blobs/ab, …" like the backup's own layout.
    const file = await openRegularFile(dirname(root), join(basename(root), blobPathOf(key)))
    if (file === 'missing') return undefined
    if (typeof file === 'string') throw new RefusedBlob(file)
    return file
  }
  const checkedStream = (key: string, range: Parameters<BlobStore['read']>[1]) => {
    let file: OpenedRegularFile | undefined
    return streamAfter(
      async () => {
        file = await opened(key)
        if (!file) throw Object.assign(new Error(`no blob ${key}`), { code: 'ENOENT' })
        return slice(Bun.file(file.handle.fd), range).stream()
      },
      () => file?.handle.close(),
    )
  }
  const readOnly = async () => {
    throw new Error('a blob folder being restored from is never written to')
  }

  return {
    async stat(key) {
      const file = await opened(key)
      if (!file) return undefined
      try {
        return { size: file.size, modifiedAt: (await file.handle.stat()).mtimeMs }
      } finally {
        await file.handle.close()
      }
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

/** A stream whose source is opened (and checked) when the first bytes are asked for; `close` once it is over. */
function streamAfter(open: () => Promise<ReadableStream<Uint8Array>>, close: () => Promise<void> | undefined): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        reader ??= (await open()).getReader()
        const { done, value } = await reader.read()
        if (done) {
          controller.close()
          await close()
        } else controller.enqueue(value)
      } catch (error) {
        await close()
        throw error
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason)
      await close()
    },
  })
}
