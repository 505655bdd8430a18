import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { FileWithLink } from './file-rows'
import { getOwnedFile } from './get-owned-file'
import { MAX_SWAP_ATTEMPTS } from './versions'
import { type HeldKey, keptIn } from '../idempotency/keep'
import { enqueueEvent } from '../webhooks/outbox'
import { fileKeptChanging, versionNotFound } from '../../errors'
import { findKeptVersion, type VersionKey } from './find-version'
import { toFileDto } from './presenter'
import { nextUpdatedAt } from './update-metadata'

/**
 * Makes a previous version the file's PDF again: the current PDF becomes the newest previous version and the
 * chosen one comes out of the list, in one transaction, compare-and-swap on the blob key like a replacement
 * (a concurrent replacement or restore makes this one try again on the new state). The file keeps its id and
 * links; its bytes, size, SHA-256 (so the share page's ETag) and filename become the version's. No bytes are
 * added or removed, so the quota is not consulted and nothing is pruned. Restoring the current version changes
 * nothing. The file's webhooks get `file.replaced` (with `restoredVersionId`), in the same transaction: to a
 * receiver a restore is the PDF behind the links changing, like a replacement. The answer is the row as the swap
 * wrote it, and so is the answer an Idempotency-Key (`key`) keeps in the same transaction.
 */
export async function restoreVersion(ctx: AppContext, input: VersionKey & { key?: HeldKey<FileWithLink> }): Promise<FileWithLink> {
  const { files, fileVersions } = ctx.db.tables
  const target = { ownerId: input.ownerId, id: input.id }
  const owned = and(eq(files.id, input.id), eq(files.ownerId, input.ownerId))
  for (let attempt = 1; attempt <= MAX_SWAP_ATTEMPTS; attempt++) {
    const current = await getOwnedFile(ctx, target)
    if (input.versionId === current.versionId) return current
    const version = await findKeptVersion(ctx, current.id, input.versionId)
    if (!version) throw versionNotFound()
    const now = ctx.now()
    const holdsCurrent = and(owned, eq(files.blobKey, current.blobKey))
    const holdsVersion = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${owned} AND ${files.blobKey} = ${version.blobKey})`
    // What the file takes over from the version; the same values go into the row and into the event.
    const becomesCurrent = {
      blobKey: version.blobKey,
      versionId: version.id,
      filename: version.filename,
      size: version.size,
      sha256: version.sha256,
      uploadedAt: now,
    }
    const restored = { ...current, ...becomesCurrent, updatedAt: Math.max(now, current.updatedAt + 1) }
    const [, swapped] = await ctx.db.orm.batch([
      // The current PDF becomes a previous version, if the file still holds it and the chosen version is still kept.
      ctx.db.orm.run(sql`
        INSERT INTO ${fileVersions} (id, file_id, blob_key, filename, size, sha256, uploaded_at, replaced_at)
        SELECT version_id, id, blob_key, filename, size, sha256, uploaded_at, ${now} FROM ${files}
        WHERE ${holdsCurrent} AND EXISTS (SELECT 1 FROM ${fileVersions} WHERE ${fileVersions.id} = ${version.id} AND ${fileVersions.fileId} = ${current.id})`),
      // The chosen version becomes current, only if the statement above moved the current PDF aside.
      ctx.db.orm
        .update(files)
        .set({ ...becomesCurrent, updatedAt: nextUpdatedAt(ctx.db.tables, now) })
        .where(and(holdsCurrent, sql`EXISTS (SELECT 1 FROM ${fileVersions} WHERE ${fileVersions.id} = ${current.versionId})`))
        .returning({ id: files.id }),
      // And leaves the list of previous versions, only if the file now holds its PDF.
      ctx.db.orm.delete(fileVersions).where(and(eq(fileVersions.id, version.id), holdsVersion)),
      ctx.db.orm.run(
        enqueueEvent(ctx.db, {
          event: 'file.replaced',
          ownerId: input.ownerId,
          data: { file: toFileDto(restored, ctx.config.publicUrl), restoredVersionId: version.id },
          at: now,
          onlyIf: holdsVersion,
        }),
      ),
      ...keptIn(ctx, input.key, restored, holdsVersion),
    ])
    if (swapped.length > 0) {
      ctx.jobs.wake('outbox')
      return restored
    }
  }
  throw fileKeptChanging(MAX_SWAP_ATTEMPTS)
}
