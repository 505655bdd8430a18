import type { AppContext } from '../context'
import { type Actor, recordAudit } from '../audit/record'
import { infected, scanUnavailable } from '../../errors'
import type { ReceivedPdf } from './pdf-part-writer'
import { clamdScanner } from './virus-scan'

/** Whose PDF it is, who sent it, and whether a file request received it (which never takes an unscanned PDF). */
type ScannedFor = { ownerId: string; actor: Actor; request?: { requestId: string } }

/**
 * What has to be true of a received PDF before anything may store it, when PDFSHARE_CLAMD is set (docs/operations.md,
 * Virus scanning): clamd found no signature in it. A signature is a 422 `infected` that names it, with an entry in
 * the owner's audit log; no verdict (clamd down, too slow, an error) is a 503 `scan_unavailable` for a file
 * request's upload always, and for an owner's own upload or replacement unless PDFSHARE_CLAMD_FAIL_OPEN lets it be
 * stored unscanned (logged). Without the setting nothing is scanned.
 */
export function scanGate(ctx: AppContext): (file: ReceivedPdf, target: ScannedFor) => Promise<void> {
  const { clamd, clamdTimeout, clamdFailOpen } = ctx.config
  if (clamd === undefined) return async () => {}
  const scan = clamdScanner(clamd, clamdTimeout * 1000)
  return async (file, target) => {
    const started = performance.now()
    const verdict = await scan(file.temp.path)
    ctx.metrics.scanned(verdict.kind, (performance.now() - started) / 1000)
    if (verdict.kind === 'clean') return
    if (verdict.kind === 'infected') {
      await recordAudit(ctx, {
        action: 'upload.infected',
        actor: target.actor,
        userId: target.ownerId,
        detail: {
          signature: verdict.signature,
          filename: file.clientFilename,
          size: file.size,
          sha256: file.sha256,
          ...(target.request && { requestId: target.request.requestId }),
        },
      })
      throw infected(verdict.signature)
    }
    const failOpen = clamdFailOpen && target.request === undefined
    ctx.log.error(
      `the virus scanner could not scan an upload (${verdict.reason}): ${failOpen ? 'stored unscanned (PDFSHARE_CLAMD_FAIL_OPEN)' : 'refused with 503'}`,
    )
    if (!failOpen) throw scanUnavailable()
  }
}
