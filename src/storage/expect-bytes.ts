/** Bytes that are not the ones recorded for them: another size, or another SHA-256. */
export class BlobMismatch extends Error {
  override name = 'BlobMismatch'
  constructor(
    readonly kind: 'size' | 'sha256',
    message: string,
  ) {
    super(message)
  }
}

/**
 * Passes a blob's bytes through unchanged and, after the last one, errors the stream with a BlobMismatch if
 * they are not what `expected` says. Given to a put, it makes a copy that stores nothing unless it is exact
 * (a put from a stream that errors, even at its end, stores nothing), in one pass over the bytes.
 */
export function expectBytes(stream: ReadableStream<Uint8Array>, expected: { size?: number; sha256?: string }): ReadableStream<Uint8Array> {
  const hasher = expected.sha256 === undefined ? undefined : new Bun.CryptoHasher('sha256')
  let size = 0
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.length
        hasher?.update(chunk)
        controller.enqueue(chunk)
      },
      flush() {
        if (expected.size !== undefined && size !== expected.size) throw new BlobMismatch('size', `${size} bytes arrived, ${expected.size} expected`)
        const sha256 = hasher?.digest('hex')
        if (sha256 !== expected.sha256) throw new BlobMismatch('sha256', `SHA-256 ${sha256}, ${expected.sha256} expected`)
      },
    }),
  )
}
