import type { AppContext } from '../core/context'
import { assertQuotaAllows, quotaGrowth } from '../core/files/quota'
import { fileTooLarge } from '../errors'
import { assertDiskSpace } from './disk-space'
import { MAX_FORM_OVERHEAD_BYTES, receiveMultipart, type MultipartBody } from './receive-multipart'
import { uploadGateFor } from './upload-gate'

/**
 * Whose upload it is, and for a replacement (a PUT with a PDF) what replacing the file frees (the bytes of the
 * versions it prunes: core/files/versions.ts `replacementPlan`); a replacement adds no file.
 */
export type UploadTarget = { ownerId: string; replacing?: { frees: number } }

/**
 * Receives the upload in `request` and hands it to `store` (which makes it a file, or replaces one's PDF);
 * resolves with what `store` returns.
 */
export type ReceiveUpload = <T>(request: Request, target: UploadTarget, store: (body: MultipartBody) => Promise<T>) => Promise<T>

/**
 * The one owner of receiving an upload, for every route that takes a PDF. Before a byte of the body is read
 * it refuses what cannot succeed, in this order: no free upload slot (server-wide or for this user), a
 * declared Content-Length that cannot fit under the size cap, a quota the declared size would pass, a disk
 * that would keep less than the reserve free. Then it streams the body to a temp file (receive-multipart.ts)
 * and calls `store` while still holding the slot. The received PDF carries its temp file's handle, and this
 * is the one place that discards it once `store` is done, whatever happened: moved into the blob store, the
 * temp file is already gone; refused, it goes now.
 */
export function uploadReceiver(ctx: AppContext): ReceiveUpload {
  const { config } = ctx
  const gate = uploadGateFor(ctx)

  const receive = async (request: Request, target: UploadTarget): Promise<MultipartBody> => {
    const declared = declaredLength(request)
    if (declared !== undefined && declared > config.maxFileSize + MAX_FORM_OVERHEAD_BYTES) throw fileTooLarge(config.maxFileSize)
    // The PDF is at least the declared body less the most a form can carry besides it.
    const leastPdfBytes = Math.max(0, (declared ?? 0) - MAX_FORM_OVERHEAD_BYTES)
    await assertQuotaAllows(ctx, target.ownerId, quotaGrowth(leastPdfBytes, target.replacing))
    // Without a Content-Length the upload may be as large as the cap.
    await assertDiskSpace(ctx.layout.tmp, declared ?? config.maxFileSize, config.minFreeDisk)
    return receiveMultipart(request, {
      tempFiles: ctx.tempFiles,
      maxFileBytes: config.maxFileSize,
      fileField: 'file',
      pace: { now: ctx.now, minBytesPerSecond: config.uploadMinRate, timeoutMs: config.uploadTimeout * 1000 },
    })
  }

  return (request, target, store) =>
    gate.run(target.ownerId, async () => {
      const body = await receive(request, target)
      try {
        return await store(body)
      } finally {
        await body.file?.temp.discard()
      }
    })
}

/** The declared Content-Length, if it is a plain non-negative integer. */
function declaredLength(request: Request): number | undefined {
  const raw = request.headers.get('content-length')
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined
}
