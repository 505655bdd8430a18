import type { S3Requests } from './s3-requests'

/**
 * Small objects by name in one folder of a bucket (previews/ for the link-preview cards): what the instances
 * in front of one bucket share besides the PDFs. Every call may fail like any request to the bucket.
 */
export type ObjectFolder = {
  /** The object's bytes, or undefined when there is none. */
  get(name: string): Promise<Uint8Array | undefined>
  put(name: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** Removing a missing object is not an error. */
  delete(name: string): Promise<void>
}

/**
 * The folder in the bucket, through the store's time-limited requests (s3-requests.ts): a bucket that stops
 * answering makes a get, put or delete fail with StoreUnavailable within PDFSHARE_S3_CONNECT_TIMEOUT and
 * PDFSHARE_S3_IDLE_TIMEOUT, never hang (Bun's own S3 client has no time limit).
 */
export function s3ObjectFolder(requests: Pick<S3Requests, 'request'>, folder: string): ObjectFolder {
  const { request } = requests
  const refused = (method: string, name: string, status: number) =>
    new Error(`the S3 store answered ${status} to ${method} ${folder}${name}`)
  return {
    get: async (name) => {
      const response = await request('GET', `${folder}${name}`)
      // Read whole, also an error's few bytes: a body left unread would keep the request's watchdog running.
      const bytes = new Uint8Array(await response.arrayBuffer())
      if (response.status === 404) return undefined
      if (!response.ok) throw refused('GET', name, response.status)
      return bytes
    },
    put: async (name, bytes, type) => {
      const response = await request('PUT', `${folder}${name}`, {
        body: new Blob([new Uint8Array(bytes)]).stream(),
        length: bytes.byteLength,
        headers: { 'content-type': type },
      })
      await response.arrayBuffer()
      if (!response.ok) throw refused('PUT', name, response.status)
    },
    delete: async (name) => {
      const response = await request('DELETE', `${folder}${name}`)
      await response.arrayBuffer()
      if (!response.ok && response.status !== 404) throw refused('DELETE', name, response.status)
    },
  }
}
