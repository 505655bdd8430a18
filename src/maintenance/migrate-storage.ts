import { type RecordedPdf, recordedPdfs } from '../core/files/recorded-pdfs'
import type { AppContext } from '../core/context'
import { badRequest } from '../errors'
import type { BlobStore } from '../storage/blob-store'
import { BlobMismatch } from '../storage/expected-bytes'
import { StoreUnavailable } from '../storage/s3-requests'
import { sha256Of } from './verify'

/** How many PDFs are copied at the same time (each: one read at the source, one write and one read back at the target). */
export const COPIES_AT_ONCE = 8

/**
 * Pauses before a PDF's copy is tried again after the store could not serve it for now (StoreUnavailable: no
 * answer within its time limit, or a 5xx). An object store has busy moments (a gateway under load answered the
 * first request of a bucket after more than its 5 s limit); a migration of thousands of PDFs should not stop for
 * one. Every try starts over from the check at the target, so a repeat never copies twice. After the last pause,
 * the error ends the run, as any other.
 */
export const RETRY_PAUSES_MS = [1_000, 4_000, 15_000]

/** A PDF the database records: a file's current one (`versionId` null) or a kept previous version. */
export type MigrateRow = RecordedPdf

export type MigrateReport = {
  files: number
  versions: number
  /** PDFs copied to the target and checked there (size and SHA-256). */
  copied: number
  copiedBytes: number
  /** PDFs the target already held with their recorded size and SHA-256 (a rerun): not copied again. */
  skipped: number
  skippedBytes: number
  /** PDFs the target held with other bytes (an interrupted or damaged copy): copied again. */
  replaced: MigrateRow[]
  /** PDFs that could not be copied, each with why; nothing was deleted for them anywhere. */
  problems: { row: MigrateRow; detail: string }[]
  /** Blobs already in the target that no row points at (left as they are). */
  unknownAtTarget: number
}

export type MigrateOptions = {
  /**
   * What to do when the target holds blobs this database does not know. `refuse` (a bucket: it may be
   * another install's, whose PDFs the start-up sweep would then set aside) or `keep` (the data dir's own
   * blobs/: leftovers of this install, which the start-up sweep moves to orphans/).
   */
  unknownAtTarget: 'refuse' | 'keep'
  /** Called after each PDF, for a progress line. */
  onProgress?: (done: number, total: number, bytes: number) => void
  /** Called before a try again, with why (for a line to the operator). */
  onRetry?: (what: string, error: Error, pauseMs: number) => void
  /** RETRY_PAUSES_MS unless given (tests give short ones). */
  retryPausesMs?: readonly number[]
}

/**
 * Copies every PDF the database records, the files' current ones and their kept previous versions, from
 * `ctx.blobs` (the store the install uses now) into `target`. Nothing is ever deleted, at the source or at
 * the target, so it can be stopped at any moment (even by kill -9) and run again: a PDF the target already
 * holds with the recorded size and SHA-256 is skipped; one it holds with other bytes is copied again.
 * The database's SHA-256 is the truth: a source blob that does not match it is not copied (reported), and a
 * copy counts only once it has been read back from the target and matches.
 */
export async function migrateBlobs(ctx: AppContext, target: BlobStore, options: MigrateOptions): Promise<MigrateReport> {
  const rows = await recordedPdfs(ctx)
  const referenced = new Set(rows.map((row) => row.blobKey))
  const retried = <T>(what: string, work: () => Promise<T>) => withRetries(what, work, options)
  // Listing the target first also checks it is reachable (an S3 bucket exists, the keys work).
  const unknown = await retried('listing the target', async () => {
    let count = 0
    for await (const key of target.keys()) if (!referenced.has(key)) count++
    return count
  })
  if (unknown > 0 && options.unknownAtTarget === 'refuse')
    throw badRequest(
      `the target already holds ${unknown} PDF(s) that this database does not know (another install's?); migrate into an empty bucket, or one holding only this install's PDFs`,
    )

  const report: MigrateReport = {
    files: rows.filter((row) => row.versionId === null).length,
    versions: rows.filter((row) => row.versionId !== null).length,
    copied: 0,
    copiedBytes: 0,
    skipped: 0,
    skippedBytes: 0,
    replaced: [],
    problems: [],
    unknownAtTarget: unknown,
  }
  const outcomes: Outcome[] = new Array(rows.length)
  let next = 0
  let done = 0
  let bytes = 0
  let failure: { error: unknown } | undefined
  // A few copies at once: against an object store most of a small PDF's time is request latency.
  const worker = async () => {
    while (!failure && next < rows.length) {
      const index = next++
      const row = rows[index]!
      try {
        outcomes[index] = await retried(`the PDF of file ${row.fileId}`, () => migrateOne(ctx.blobs, target, row))
      } catch (error) {
        failure ??= { error } // the others finish the copy in hand, then stop
        return
      }
      bytes += row.size
      options.onProgress?.(++done, rows.length, bytes)
    }
  }
  await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, rows.length) }, worker))
  if (failure) throw failure.error

  rows.forEach((row, index) => {
    const outcome = outcomes[index]!
    if (outcome === 'skipped') {
      report.skipped++
      report.skippedBytes += row.size
    } else if (outcome === 'copied' || outcome === 'replaced') {
      report.copied++
      report.copiedBytes += row.size
      if (outcome === 'replaced') report.replaced.push(row)
    } else report.problems.push({ row, detail: outcome.problem })
  })
  return report
}

/** `work`, tried again after each pause while the store is unavailable for now; other errors at once. */
async function withRetries<T>(
  what: string,
  work: () => Promise<T>,
  { onRetry, retryPausesMs = RETRY_PAUSES_MS }: Pick<MigrateOptions, 'onRetry' | 'retryPausesMs'>,
): Promise<T> {
  for (let tried = 0; ; tried++) {
    try {
      return await work()
    } catch (error) {
      const pause = retryPausesMs[tried]
      if (!(error instanceof StoreUnavailable) || pause === undefined) throw error
      onRetry?.(what, error, pause)
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }
}

type Outcome = 'skipped' | 'copied' | 'replaced' | { problem: string }

async function migrateOne(source: BlobStore, target: BlobStore, row: MigrateRow): Promise<Outcome> {
  const there = await matches(target, row)
  if (there === true) return 'skipped'
  const found = await source.stat(row.blobKey)
  if (!found) return { problem: 'its PDF is missing at the source (and not at the target)' }
  if (found.size !== row.size) return { problem: `its PDF at the source has ${found.size} bytes, ${row.size} recorded; not copied` }
  try {
    await target.put(row.blobKey, { stream: source.read(row.blobKey), expected: { size: row.size, sha256: row.sha256 } })
  } catch (error) {
    if (error instanceof BlobMismatch) return { problem: `its PDF at the source does not match its recorded SHA-256; not copied` }
    throw error
  }
  const copied = await matches(target, row)
  if (copied !== true) return { problem: `its copy at the target ${copied}` }
  return there === 'is missing' ? 'copied' : 'replaced'
}

/** True when the target holds the row's blob with its recorded size and SHA-256 (read back in full); else what is wrong. */
async function matches(store: BlobStore, row: MigrateRow): Promise<true | string> {
  const stat = await store.stat(row.blobKey)
  if (!stat) return 'is missing'
  if (stat.size !== row.size) return `has ${stat.size} bytes, ${row.size} recorded`
  const sha256 = await sha256Of({ blobs: store }, row.blobKey)
  return sha256 === row.sha256 || `has SHA-256 ${sha256}, ${row.sha256} recorded`
}
