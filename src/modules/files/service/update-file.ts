import { and, eq, sql } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { AppContext } from '../../../core/context'
import { discardBlob } from '../../../core/files/discard-blob'
import { getOwnedFile } from '../../../core/files/get-owned-file'
import { fitsQuota, quotaGrowth, quotaRefusal } from '../../../core/files/quota'
import type { FileWithLink } from '../../../core/files/file-rows'
import { files, links } from '../../../db/schema'
import { notFound } from '../../../errors'
import { isWellFormedId, randomId } from '../../../lib/ids'
import type { ReceivedPdf } from '../../../uploads/pdf-part-writer'
import type { MultipartBody } from '../../../uploads/receive-multipart'
import { metadataFromForm, type MetadataInput } from '../input'

type Target = { ownerId: string; id: string }

/** PUT with a JSON body: metadata only. Omitted fields stay as they are. */
export async function updateMetadata(ctx: AppContext, input: Target & { metadata: MetadataInput }): Promise<FileWithLink> {
  return applyUpdate(ctx, input, input.metadata, undefined)
}

/**
 * PUT with a multipart body: metadata and, when a file part was sent, the replacement PDF. All or nothing.
 * The received temp file is the upload receiver's to discard.
 */
export async function updateFromMultipart(ctx: AppContext, input: Target & { body: MultipartBody }): Promise<FileWithLink> {
  return applyUpdate(ctx, input, metadataFromForm(input.body.fields), input.body.file)
}

// Each successful PUT moves updatedAt forward, even two within the same millisecond.
const nextUpdatedAt = (now: number) => sql`max(${now}, ${files.updatedAt} + 1)`

async function applyUpdate(
  ctx: AppContext,
  target: Target,
  metadata: MetadataInput,
  replacement: ReceivedPdf | undefined,
): Promise<FileWithLink> {
  const { allowDownload, searchEngineVisible, ...fileFields } = metadata
  const now = ctx.now()
  const changes = { ...fileFields, updatedAt: nextUpdatedAt(now) }
  const switches = { allowDownload, searchEngineVisible }
  const hasSwitches = allowDownload !== undefined || searchEngineVisible !== undefined
  if (!replacement) {
    if (!isWellFormedId(target.id)) throw notFound()
    const updateFile = ctx.db.update(files).set(changes).where(ownedBy(target)).returning({ id: files.id })
    // The switches are the default link's; in the same transaction, so the PUT is all or nothing.
    const updateLink = ctx.db
      .update(links)
      .set({ ...switches, updatedAt: now })
      .where(and(eq(links.fileId, sql`(SELECT ${files.id} FROM ${files} WHERE ${ownedBy(target)})`), eq(links.isDefault, true)))
    const [updated] = hasSwitches ? await ctx.db.batch([updateFile, updateLink]) : [await updateFile]
    if (updated.length === 0) throw notFound()
    return getOwnedFile(ctx, target)
  }

  // New bytes first, under a new key; then switch the row in one statement; only then drop the old bytes.
  // A reader sees the old blob with the old metadata or the new blob with the new metadata, never a mix.
  const blobKey = randomId()
  await ctx.blobs.put(blobKey, { file: replacement.temp.path })
  let switched: { oldBlobKey: string } | undefined
  try {
    switched = await switchBlob(
      ctx,
      target,
      { ...changes, blobKey, size: replacement.size, sha256: replacement.sha256, uploadedAt: now },
      {
        ...switches,
        updatedAt: hasSwitches ? now : undefined,
      },
    )
  } finally {
    if (!switched) await ctx.blobs.delete(blobKey)
  }
  await discardBlob(ctx, switched.oldBlobKey)
  return getOwnedFile(ctx, target)
}

const ownedBy = (target: Target) => and(eq(files.id, target.id), eq(files.ownerId, target.ownerId))

/**
 * Compare-and-swap on the blob key, so that two concurrent replacements of one file cannot both believe they
 * replaced the same old blob (and one delete bytes the other still points at). Last writer wins. The default
 * link's switches change in the same transaction, only if the swap happened (the row holds the new key).
 */
async function switchBlob(
  ctx: AppContext,
  target: Target,
  changes: SQLiteUpdateSetSource<typeof files> & { size: number; blobKey: string },
  linkChanges: SQLiteUpdateSetSource<typeof links>,
): Promise<{ oldBlobKey: string }> {
  for (let attempt = 0; ; attempt++) {
    const current = await getOwnedFile(ctx, target)
    // The row can only switch while it still holds `current`'s blob, so its size is `current`'s.
    const growth = quotaGrowth(changes.size, current)
    const swap = ctx.db
      .update(files)
      .set(changes)
      .where(and(ownedBy(target), eq(files.blobKey, current.blobKey), fitsQuota(target.ownerId, growth)))
      .returning({ id: files.id })
    const switchLink = () =>
      ctx.db
        .update(links)
        .set(linkChanges)
        .where(
          and(
            eq(links.fileId, sql`(SELECT ${files.id} FROM ${files} WHERE ${ownedBy(target)} AND ${files.blobKey} = ${changes.blobKey})`),
            eq(links.isDefault, true),
          ),
        )
    const [swapped] = linkChanges.updatedAt === undefined ? [await swap] : await ctx.db.batch([swap, switchLink()])
    if (swapped.length > 0) return { oldBlobKey: current.blobKey }
    const now = await getOwnedFile(ctx, target) // 404 if it was deleted meanwhile
    if (now.blobKey === current.blobKey || attempt >= 5) {
      throw await quotaRefusal(ctx, target.ownerId, growth)
    }
  }
}
