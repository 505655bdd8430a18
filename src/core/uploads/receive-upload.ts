import type { AppContext } from '../context'
import type { Actor } from '../audit/record'
import { assertQuotaAllows, quotaGrowth } from '../files/quota'
import { DomainError, fileTooLarge, requestOwnerFull } from '../../errors'
import { assertDiskSpace } from './disk-space'
import { MAX_FORM_OVERHEAD_BYTES, receiveMultipart, type MultipartBody } from './receive-multipart'
import type { TempFile, TempFiles } from '../../storage/temp-files'
import { uploadGateFor } from './upload-gate'
import { scanGate } from './scan-gate'

/**
 * Whose upload it is, and for a replacement (a PUT with a PDF) what replacing the file frees (the bytes of the
 * versions it prunes: core/files/versions.ts `replacementPlan`); a replacement adds no file. `replay`: a retry
 * whose answer is kept under its Idempotency-Key, read only for its digest, so the quota (which its first
 * request used) is not checked before it.
 */
export type UploadTarget = {
  ownerId: string
  replacing?: { frees: number }
  replay?: boolean
  /** Who sends it: the audit log names them when clamd finds a signature in the PDF. */
  actor: Actor
  /**
   * A file request's upload (core/requests/): its own size cap (at most the instance's), its own
   * upload slots (`slotKey`, so senders never take the owner's own), and a scan that must give a verdict.
   */
  request?: { slotKey: string; maxFileBytes: number; requestId: string }
}

/**
 * A received upload: its form fields and its PDF (in a temp file), for the owner it was received for. It owns
 * its upload slot and every temp file made for it, and gives them back once, when it is disposed
 * (`Symbol.asyncDispose`, in the route's `finally`; `await using` would say the same, but the import checker's
 * parser cannot read it yet): a PDF moved into the blob store has left its temp file already, a refused one's
 * goes then.
 */
export type Upload = MultipartBody & { ownerId: string; [Symbol.asyncDispose](): Promise<void> }

export type ReceiveUpload = (request: Request, target: UploadTarget) => Promise<Upload>

/**
 * The one owner of receiving an upload, for every route that takes a PDF. Before a byte of the body is read
 * it refuses what cannot succeed, in this order: no free upload slot (server-wide or for this user), a
 * declared Content-Length that cannot fit under the size cap, a quota the declared size would pass, a disk
 * that would keep less than the reserve free. Then it streams the body to a temp file (receive-multipart.ts),
 * and, with clamd set up, has the PDF scanned before anyone may store it (scan-gate.ts). An upload refused on
 * the way gives its slot and temp file back before the refusal is thrown.
 */
export function uploadReceiver(ctx: AppContext): ReceiveUpload {
  const { config } = ctx
  const gate = uploadGateFor(ctx)
  const scan = scanGate(ctx)

  const receive = async (request: Request, target: UploadTarget, tempFiles: TempFiles): Promise<MultipartBody> => {
    const maxFileBytes = Math.min(config.maxFileSize, target.request?.maxFileBytes ?? config.maxFileSize)
    const declared = declaredLength(request)
    if (declared !== undefined && declared > maxFileBytes + MAX_FORM_OVERHEAD_BYTES) throw fileTooLarge(maxFileBytes)
    // The PDF is at least the declared body less the most a form can carry besides it.
    const leastPdfBytes = Math.max(0, (declared ?? 0) - MAX_FORM_OVERHEAD_BYTES)
    if (!target.replay) {
      const allowed = assertQuotaAllows(ctx, target.ownerId, quotaGrowth(leastPdfBytes, target.replacing))
      // A file request's sender learns nothing of the owner's usage: a full quota is a plain 507 to them.
      await (target.request ? allowed.catch((error) => Promise.reject(isQuotaRefusal(error) ? requestOwnerFull() : error)) : allowed)
    }
    // Without a Content-Length the upload may be as large as the cap.
    await assertDiskSpace(ctx.layout.tmp, declared ?? maxFileBytes, config.minFreeDisk)
    const body = await receiveMultipart(request, {
      tempFiles,
      maxFileBytes,
      fileField: 'file',
      pace: { now: ctx.now, minBytesPerSecond: config.uploadMinRate, timeoutMs: config.uploadTimeout * 1000 },
    })
    // A replay is read only for its digest and stores nothing: it needs no scan.
    if (body.file && !target.replay) await scan(body.file, target)
    return body
  }

  return async (request, target) => {
    const release = await gate.take(target.request?.slotKey ?? target.ownerId)
    const temps: TempFile[] = []
    let disposed = false
    const dispose = async () => {
      if (disposed) return
      disposed = true
      for (const temp of temps) await temp.discard()
      await release()
    }
    // Every temp file made for this upload is its own, whatever happens to the part it was made for.
    const tempFiles: TempFiles = {
      async create(name) {
        const temp = await ctx.tempFiles.create(name)
        temps.push(temp)
        return temp
      },
    }
    try {
      return { ...(await receive(request, target, tempFiles)), ownerId: target.ownerId, [Symbol.asyncDispose]: dispose }
    } catch (error) {
      await dispose()
      throw error
    }
  }
}

/** The declared Content-Length, if it is a plain non-negative integer. */
function declaredLength(request: Request): number | undefined {
  const raw = request.headers.get('content-length')
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined
}

const isQuotaRefusal = (error: unknown) => error instanceof DomainError && error.code === 'quota_exceeded'
