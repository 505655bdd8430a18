import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { fileTooLarge, insufficientStorage } from '../../errors'
import { isDiskFull } from '../../storage/disk-full'
import type { TempFile } from '../../storage/temp-files'
import { createSignatureCheck } from './pdf-signature'

/**
 * A PDF that has fully arrived in a temporary file, fsync'd, with its size and SHA-256. The temp file belongs
 * to the upload it came with (core/uploads/receive-upload.ts), which discards it once the PDF has been stored or
 * refused, so no one else removes temp files.
 */
export type ReceivedPdf = {
  temp: TempFile
  size: number
  sha256: string
  /** The part's filename as the client sent it (already reduced to a basename by the caller). */
  clientFilename: string
}

/**
 * Streams one file part into a temp file while counting, hashing and checking for the `%PDF-` signature in
 * its first 1,024 bytes. The bytes are stored exactly as they came (anything before the signature included).
 * Throws the moment the signature check fails or the size passes `maxBytes`,
 * so the caller can stop reading the request at once. Memory use is bounded by the temp file's batches (about 2 MiB).
 */
export async function writePdfPart(stream: Readable, temp: TempFile, maxBytes: number, clientFilename: string): Promise<ReceivedPdf> {
  const hash = createHash('sha256')
  const signature = createSignatureCheck()
  let size = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signature.push(chunk)
      size += chunk.length
      if (size > maxBytes) throw fileTooLarge(maxBytes)
      hash.update(chunk)
      await temp.write(chunk)
    }
    signature.finish()
    await temp.sync()
    await temp.close()
  } catch (error) {
    // The temp file stays the upload's (receive-upload.ts), which discards it with the refusal.
    await temp.close().catch(() => {})
    throw isDiskFull(error) ? insufficientStorage('the disk filled up while it was being written') : error
  }
  return { temp, size, sha256: hash.digest('hex'), clientFilename }
}
