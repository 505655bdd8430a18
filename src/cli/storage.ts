import { type Config, missingS3Settings } from '../config'
import { configuredBlobStore } from '../data-dir/blobs'
import { migrateBlobs, type MigrateReport, type MigrateRow } from '../maintenance/migrate-storage'
import { openContext } from '../open-context'
import { formatSize } from '../shared/sizes'
import { describeS3Failure } from '../storage/s3-errors'
import { allowOnly, type ParsedArgs, stringFlag } from './args'
import { CliFailure, commandHint, type CliIo } from './io'
import { acquireServerLock, serverHoldingLock } from './server-lock'

export const STORAGE_USAGE = `storage migrate --to s3|local
                                copy every PDF (versions too) from the data dir into the S3 bucket of the
                                PDFSHARE_S3_* settings, or back; resumable, each copy checked, nothing deleted;
                                run it with the server stopped, then change PDFSHARE_STORAGE`

type Store = Config['storage']

/** How often a long migration says how far it is. */
const PROGRESS_EVERY_MS = 10_000

/**
 * `storage migrate --to s3|local`: copies an install's PDFs between its data dir and its bucket. Runs with
 * the server stopped, and holds the server lock meanwhile, so that no server starts on the data dir and
 * uploads into the store being copied from. Returns false when some PDF could not be copied.
 */
export async function storageCommand(config: Config, args: ParsedArgs, io: CliIo): Promise<boolean> {
  const [, action, ...extra] = args.positionals
  if (action !== 'migrate') throw new CliFailure(action ? `unknown command "storage ${action}"` : 'storage needs a subcommand: migrate', 2)
  allowOnly(args, 'storage migrate', ['to'])
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  const to = stringFlag(args, 'to')
  if (to !== 's3' && to !== 'local') throw new CliFailure('storage migrate needs --to s3 or --to local', 2)
  const from = to === 's3' ? 'local' : 's3'
  const missing = missingS3Settings(config)
  if (missing.length > 0) throw new CliFailure(`storage migrate --to ${to} needs ${missing.join(', ')} (not set)`, 2)
  const pid = await serverHoldingLock(config.dataDir)
  if (pid !== undefined) throw new CliFailure(`a server (pid ${pid}) is running on this data dir; stop it before storage migrate`, 1)

  const bucket = { endpoint: config.s3Endpoint ?? '', bucket: config.s3Bucket ?? '' }
  const where = { local: `the data dir's blobs/ (${config.dataDir}/blobs)`, s3: `the S3 bucket ${bucket.bucket} at ${bucket.endpoint}` }
  try {
    // Opened as the install is now (its PDFs in `from`): the data dir pairing check looks there.
    const ctx = await openContext({ ...config, storage: from })
    try {
      for (const notice of ctx.notices) io.err(notice)
      const release = await acquireServerLock(config.dataDir)
      try {
        const target = configuredBlobStore(ctx.layout, { ...config, storage: to })
        io.err(`copying every PDF from ${where[from]} to ${where[to]}`)
        const started = performance.now()
        let lastProgress = started
        const report = await migrateBlobs(ctx, target, {
          unknownAtTarget: to === 's3' ? 'refuse' : 'keep',
          onProgress(done, total, bytes) {
            if (performance.now() - lastProgress < PROGRESS_EVERY_MS || done === total) return
            lastProgress = performance.now()
            io.err(`… ${done} of ${total} PDF(s), ${formatSize(bytes)}`)
          },
          onRetry(what, error, pauseMs) {
            io.err(`${what}: ${error.message}; trying again in ${pauseMs / 1000} s`)
          },
        })
        return printReport(io, report, { seconds: (performance.now() - started) / 1000, from, to, where, dataDir: config.dataDir })
      } finally {
        await release()
      }
    } finally {
      ctx.close()
    }
  } catch (error) {
    const s3 = describeS3Failure(error, bucket)
    throw s3 ? new CliFailure(s3, 1) : error
  }
}

/** The outcome for the operator; false when some PDF could not be copied. */
function printReport(
  io: CliIo,
  report: MigrateReport,
  { seconds, from, to, where, dataDir }: { seconds: number; from: Store; to: Store; where: Record<Store, string>; dataDir: string },
): boolean {
  for (const row of report.replaced) io.out(`replaced: ${describe(row)}: the copy already at the target had other bytes; copied again`)
  for (const { row, detail } of report.problems) io.out(`problem: ${describe(row)}: ${detail}`)
  if (report.unknownAtTarget > 0)
    io.out(
      `note: ${where[to]} already held ${report.unknownAtTarget} PDF(s) no file points at; left in place (the server's start-up sweep moves them to orphans/)`,
    )
  const rate = report.copied > 0 ? ` (${formatSize(report.copiedBytes / Math.max(seconds, 0.001))}/s)` : ''
  io.out(
    `${report.files} file(s) and ${report.versions} previous version(s): copied ${report.copied} PDF(s), ${formatSize(report.copiedBytes)}, ` +
      `in ${seconds.toFixed(1)} s${rate}, each read back from the target and checked (size and SHA-256); ` +
      `skipped ${report.skipped} already there (${formatSize(report.skippedBytes)})`,
  )
  io.out(`nothing was deleted: the PDFs are still in ${where[from]}`)
  if (report.problems.length > 0) {
    io.err(
      `not complete: ${report.problems.length} PDF(s) could not be copied (see above); keep PDFSHARE_STORAGE=${from}, and run storage migrate again once they are fixed (${commandHint(dataDir, 'verify')} lists damaged PDFs)`,
    )
    return false
  }
  io.err(
    to === 's3'
      ? "next: set PDFSHARE_STORAGE=s3 (with the same PDFSHARE_S3_* settings) and start the server; once it serves your files, remove the data dir's blobs/ yourself"
      : 'next: set PDFSHARE_STORAGE=local (or unset it) and start the server; once it serves your files, remove blobs/ from the bucket yourself',
  )
  return true
}

function describe(row: MigrateRow): string {
  const what = row.versionId === null ? `file ${row.fileId}` : `file ${row.fileId} version ${row.versionId}`
  return `${what} (${JSON.stringify(row.filename)}, owner ${row.owner})`
}
