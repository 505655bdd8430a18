import type { AppContext } from '../context'

/**
 * Runs `use` on a local file with the blob's PDF (the blob itself on the local disk, a temporary copy of a
 * bucket's object: BlobStore.localFile), the path a renderer opens, and lets go of it afterwards, whatever `use` did.
 */
export async function withLocalPdf<T>(ctx: Pick<AppContext, 'blobs'>, blobKey: string, use: (pdfPath: string) => Promise<T>): Promise<T> {
  const pdf = await ctx.blobs.localFile(blobKey)
  try {
    return await use(pdf.path)
  } finally {
    await pdf.release()
  }
}
