import type { S3Client } from 'bun'

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

export function s3ObjectFolder(client: S3Client, folder: string): ObjectFolder {
  const object = (name: string) => client.file(`${folder}${name}`)
  return {
    get: async (name) => {
      try {
        return await object(name).bytes()
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },
    put: async (name, bytes, type) => void (await object(name).write(bytes, { type })),
    delete: async (name) => {
      try {
        await object(name).delete()
      } catch (error) {
        if (!isMissing(error)) throw error
      }
    },
  }
}

const isMissing = (error: unknown) => (error as { code?: string } | null)?.code === 'NoSuchKey'
