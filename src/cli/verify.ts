import { SHARED_SWEEP_MIN_AGE_MS } from '../maintenance/sweep'
import type { AppContext } from '../core/context'
import { formatSize } from '../shared/sizes'
import { verifyStore } from '../maintenance/verify'
import { allowOnly, type ParsedArgs } from './args'
import { CliFailure, type CliIo } from './io'
import { serverHoldingLock } from './server-lock'

export const VERIFY_USAGE = `verify [--repair]              check every file's PDF and kept version (present, size, SHA-256) and find
                                unreferenced blobs; exit 1 on any problem; --repair removes unreferenced blobs only`

export async function verifyCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<boolean> {
  allowOnly(args, 'verify', ['repair'])
  if (args.positionals.length > 1) throw new CliFailure(`unexpected argument ${JSON.stringify(args.positionals[1])}`, 2)
  const repair = args.flags.repair === true
  // A running server may be between "blob in place" and "row committed": never delete under it.
  const pid = await serverHoldingLock(ctx.config.dataDir)
  if (repair && pid !== undefined)
    throw new CliFailure(`a server (pid ${pid}) is running on this data dir; stop it before verify --repair`, 1)

  const started = performance.now()
  // Instances on one PostgreSQL database take no lock: a young blob without a row may be another's upload.
  const { shared } = ctx.db
  const report = await verifyStore(ctx, { repair, recentMs: shared ? SHARED_SWEEP_MIN_AGE_MS : undefined })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  io.out(`checked ${report.files} file(s) and ${report.versions} previous version(s), ${formatSize(report.bytes)}, in ${seconds} s`)
  for (const problem of report.problems) {
    const what = problem.versionId === null ? `file ${problem.fileId}` : `file ${problem.fileId} version ${problem.versionId}`
    io.out(`problem: ${what} (${JSON.stringify(problem.filename)}, owner ${problem.owner}): ${problem.detail}`)
  }
  for (const orphan of report.orphans) {
    const fate = orphan.recent
      ? 'stored less than a day ago: may be an upload another instance is committing; left alone'
      : repair
        ? 'removed'
        : pid !== undefined
          ? 'may be an upload in progress; run verify --repair with the server stopped to remove it'
          : 'run verify --repair to remove it'
    io.out(`unreferenced: blob ${orphan.key} (${formatSize(orphan.size)}) belongs to no file; ${fate}`)
  }
  const settled = report.orphans.filter((orphan) => !orphan.recent).length
  const ok = report.problems.length === 0 && (repair || settled === 0)
  io.out(
    ok
      ? 'ok: every file is present with its recorded size and SHA-256, and every kept version'
      : `${report.problems.length} damaged file(s), ${repair ? 0 : settled} unreferenced blob(s)`,
  )
  return ok
}
