import { desc, eq } from 'drizzle-orm'
import type { FileRow } from '../../db/tables'
import type { AppContext } from '../context'

/** The part of a kept version (or of the current PDF about to become one) that pruning needs. */
export type PrunableVersion = { id: string; blobKey: string; size: number }

/** What replacing a file's PDF would delete to stay within PDFSHARE_MAX_VERSIONS, and the bytes that frees. */
export type ReplacementPlan = { prune: PrunableVersion[]; frees: number }

/**
 * A replacement turns the current PDF into the newest previous version; beyond `maxVersions` previous versions
 * the oldest go. With 0 kept that is the replaced PDF itself (nothing is kept, as before versions existed).
 * Read before the replacement commits: the committing batch checks that the versions it prunes are still there
 * (and the file still holds `file`'s PDF), so the plan is exactly what the commit does.
 */
export async function replacementPlan(
  ctx: AppContext,
  file: Pick<FileRow, 'id' | 'versionId' | 'blobKey' | 'size'>,
): Promise<ReplacementPlan> {
  const { fileVersions } = ctx.db.tables
  const kept = await ctx.db.orm
    .select({ id: fileVersions.id, blobKey: fileVersions.blobKey, size: fileVersions.size })
    .from(fileVersions)
    .where(eq(fileVersions.fileId, file.id))
    .orderBy(desc(fileVersions.seq))
  const previous = [{ id: file.versionId, blobKey: file.blobKey, size: file.size }, ...kept]
  const prune = previous.slice(ctx.config.maxVersions)
  return { prune, frees: prune.reduce((sum, version) => sum + version.size, 0) }
}

/**
 * Tries of a replacement's or a restore's compare-and-swap before it gives up on a file that other requests keep
 * changing (each miss means another change committed). Seven concurrent changes of one file need up to seven.
 */
export const MAX_SWAP_ATTEMPTS = 20
