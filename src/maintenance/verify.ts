import { recordedPdfs } from '../core/files/recorded-pdfs'
import type { AppContext } from '../core/context'
import { discardBlob } from '../core/files/discard-blob'

export type FileProblem = {
  fileId: string
  /** The previous version whose PDF is damaged; null for the file's current PDF. */
  versionId: string | null
  filename: string
  owner: string
  kind: 'missing' | 'size' | 'checksum'
  detail: string
}

export type VerifyReport = {
  files: number
  /** Previous versions checked, besides the files' current PDFs. */
  versions: number
  /** Of the current PDFs and the versions together. */
  bytes: number
  problems: FileProblem[]
  /** Blobs no file points at. */
  /** `recent`: younger than `recentMs` (may be another instance's upload in progress: never removed). */
  orphans: { key: string; size: number; recent: boolean }[]
  /** Orphans removed by `repair`. */
  removed: number
}

/** SHA-256 of a blob, read as a stream (never the whole file in memory). */
export async function sha256Of(ctx: Pick<AppContext, 'blobs'>, key: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256')
  for await (const chunk of ctx.blobs.read(key)) hasher.update(chunk)
  return hasher.digest('hex')
}

/**
 * Checks every file's blob and every kept previous version's: present, exactly the recorded size, and the
 * recorded SHA-256; then lists blobs that nothing points at. With `repair`, orphans are removed (nothing else is
 * ever changed: a damaged file or version is reported, not deleted).
 */
export async function verifyStore(ctx: AppContext, options: { repair: boolean; recentMs?: number }): Promise<VerifyReport> {
  const rows = await recordedPdfs(ctx)
  const versions = rows.filter((row) => row.versionId !== null).length
  const report: VerifyReport = { files: rows.length - versions, versions, bytes: 0, problems: [], orphans: [], removed: 0 }
  const referenced = new Set<string>()
  for (const row of rows) {
    referenced.add(row.blobKey)
    report.bytes += row.size
    const problem = (kind: FileProblem['kind'], detail: string) =>
      report.problems.push({ fileId: row.fileId, versionId: row.versionId, filename: row.filename, owner: row.owner, kind, detail })
    const blob = await ctx.blobs.stat(row.blobKey)
    if (!blob) {
      problem('missing', 'its PDF is missing from the blob store')
      continue
    }
    if (blob.size !== row.size) {
      problem('size', `its PDF has ${blob.size} bytes on disk, ${row.size} recorded`)
      continue
    }
    const actual = await sha256Of(ctx, row.blobKey)
    if (actual !== row.sha256) problem('checksum', `its PDF's SHA-256 is ${actual}, ${row.sha256} recorded`)
  }
  for await (const key of ctx.blobs.keys()) {
    if (referenced.has(key)) continue
    const found = await ctx.blobs.stat(key)
    const recent = !!options.recentMs && !!found && ctx.now() - found.modifiedAt < options.recentMs
    report.orphans.push({ key, size: found?.size ?? 0, recent })
  }
  if (options.repair) {
    for (const orphan of report.orphans) {
      if (orphan.recent) continue
      await discardBlob(ctx, orphan.key)
      report.removed++
    }
  }
  return report
}
