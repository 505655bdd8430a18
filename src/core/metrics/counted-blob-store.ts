import type { BlobStore } from '../../storage/blob-store'
import type { Metrics } from './metrics'

/**
 * The blob store with its failures counted (pdfshare_blob_store_errors_total). A result that comes at once
 * stays synchronous: `body` of a local PDF is on the share page's hot path.
 */
export function countedBlobStore(store: BlobStore, metrics: Metrics): BlobStore {
  const counted = <T>(operation: string, result: T): T => {
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        metrics.blobStoreError(operation)
        throw error
      }) as T
    }
    return result
  }
  const guarded =
    <A extends unknown[], T>(operation: string, call: (...args: A) => T) =>
    (...args: A): T => {
      try {
        return counted(operation, call(...args))
      } catch (error) {
        metrics.blobStoreError(operation)
        throw error
      }
    }
  return {
    ...store,
    stat: guarded('stat', (key) => store.stat(key)),
    read: guarded('read', (key, range) => store.read(key, range)),
    body: guarded('body', (key, range) => store.body(key, range)),
    localFile: guarded('local_file', (key) => store.localFile(key)),
    put: guarded('put', (key, source) => store.put(key, source)),
    delete: guarded('delete', (key) => store.delete(key)),
    moveAside: guarded('move_aside', (key) => store.moveAside(key)),
    keys: () => store.keys(),
    close: store.close ? () => store.close?.() : undefined,
  }
}
