import { and, eq, inArray, sql } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { AppContext } from '../context'
import { discardBlob } from './discard-blob'
import type { FileWithLink } from './file-rows'
import { getOwnedFile } from './get-owned-file'
import { type HeldKey, keptIn } from '../idempotency/keep'
import { fitsQuota, quotaGrowth, quotaRefusal } from './quota'
import { MAX_SWAP_ATTEMPTS, type ReplacementPlan, replacementPlan } from './versions'
import { enqueueEvent } from '../webhooks/outbox'
import type { Tables } from '../../db/database'
import { badRequest, fileKeptChanging } from '../../errors'
import { randomId } from '../../lib/ids'
import type { Upload } from '../uploads/receive-upload'
import type { MetadataInput } from '../../routes/files/input'
import { toFileDto } from './presenter'
import { nextUpdatedAt, ownedBy, type Target } from './update-metadata'

/** What the route read of the file before receiving the upload (for its early quota check): the first attempt uses it. */
export type SeenBefore = { current: FileWithLink; plan: ReplacementPlan }

/**
 * PUT with a multipart body and a PDF: the replacement PDF and the form's metadata (checked by the route), all
 * or nothing. New bytes
 * first, under a new key; then the row switches in one transaction; only then go the bytes of the versions
 * pruned. A reader sees the old blob with the old metadata or the new blob with the new metadata, never a mix.
 * The file is read once (`seen`, what the route read before the upload) unless a concurrent change makes the
 * swap miss (or the route read nothing: it replays a kept answer, or did not need to); the answer is the row as
 * the swap wrote it, and the answer an Idempotency-Key (`key`) keeps is written by the swap's own transaction.
 * The upload's temp file is the upload's to discard.
 */
export async function replacePdf(
  ctx: AppContext,
  input: { id: string; upload: Upload; metadata: MetadataInput; seen?: SeenBefore; key?: HeldKey<FileWithLink> },
): Promise<FileWithLink> {
  const { upload } = input
  const replacement = upload.file
  if (!replacement) throw badRequest('The request has no file part; send the PDF as a part named "file"')
  const target: Target = { ownerId: upload.ownerId, id: input.id }
  const { allowDownload, searchEngineVisible, ...fileFields } = input.metadata
  const now = ctx.now()
  const changes = { ...fileFields, updatedAt: nextUpdatedAt(ctx.db.tables, now) }
  const switches = { allowDownload, searchEngineVisible }
  const hasSwitches = allowDownload !== undefined || searchEngineVisible !== undefined
  // New bytes first, under a new key; then switch the row in one transaction; only then drop the bytes of the
  // versions pruned. A reader sees the old blob with the old metadata or the new blob with the new metadata, never a mix.
  const blobKey = randomId()
  const pdf = { blobKey, size: replacement.size, sha256: replacement.sha256, uploadedAt: now, versionId: randomId() }
  const sent = Object.fromEntries(Object.entries(fileFields).filter(([, value]) => value !== undefined))
  // The File resource of the `file.replaced` event: what the row holds once the swap from `current` commits.
  const replaced = (current: FileWithLink): FileWithLink => ({
    ...current,
    ...sent,
    ...pdf,
    updatedAt: Math.max(now, current.updatedAt + 1),
    allowDownload: allowDownload ?? current.allowDownload,
    searchEngineVisible: searchEngineVisible ?? current.searchEngineVisible,
  })
  await ctx.blobs.put(blobKey, { file: replacement.temp.path })
  let switched: { discard: string[]; row: FileWithLink } | undefined
  try {
    switched = await switchBlob(
      ctx,
      target,
      { ...changes, ...pdf },
      {
        ...switches,
        updatedAt: hasSwitches ? now : undefined,
      },
      replaced,
      input.seen ?? (await seenNow(ctx, target)),
      input.key,
    )
  } finally {
    if (!switched) await ctx.blobs.delete(blobKey)
  }
  ctx.jobs.wake('outbox')
  ctx.metrics.uploadStored('replacement', switched.row.size)
  for (const key of switched.discard) await discardBlob(ctx, key)
  return switched.row
}

/**
 * Compare-and-swap on the blob key, so that two concurrent replacements of one file cannot both believe they
 * replaced the same old blob (and one delete bytes the other still points at). Last writer wins.
 *
 * One batch (one transaction), every statement acting only if the swap happens: the current PDF becomes the
 * newest previous version (only while the file still holds it, the quota allows the growth and the versions
 * to prune are all still there: the growth counts their bytes as freed); the row switches to the new PDF (only
 * if that version row now exists); the versions beyond PDFSHARE_MAX_VERSIONS are deleted and the default
 * link's switches change and the `file.replaced` webhook deliveries are written (only if the row holds the new
 * key: a replacement that lost the swap or was refused by the quota sends nothing). Returns the blobs to discard
 * after the commit.
 */
async function switchBlob(
  ctx: AppContext,
  target: Target,
  changes: SQLiteUpdateSetSource<Tables['files']> & { size: number; blobKey: string },
  linkChanges: SQLiteUpdateSetSource<Tables['links']>,
  replaced: (current: FileWithLink) => FileWithLink,
  seen: SeenBefore,
  key: HeldKey<FileWithLink> | undefined,
): Promise<{ discard: string[]; row: FileWithLink }> {
  const { files, fileVersions, links } = ctx.db.tables
  let { current, plan } = seen
  for (let attempt = 0; ; attempt++) {
    const growth = quotaGrowth(changes.size, plan)
    const holdsCurrent = and(ownedBy(ctx.db.tables, target), eq(files.blobKey, current.blobKey))
    const holdsNew = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${ownedBy(ctx.db.tables, target)} AND ${files.blobKey} = ${changes.blobKey})`
    const pruneIds = plan.prune.map((version) => version.id)
    const alreadyKept = pruneIds.filter((id) => id !== current.versionId)
    const stillKept =
      alreadyKept.length === 0
        ? sql`TRUE`
        : sql`(SELECT count(*) FROM ${fileVersions} WHERE ${fileVersions.fileId} = ${target.id} AND ${inArray(fileVersions.id, alreadyKept)}) = ${alreadyKept.length}`
    const keepCurrent = ctx.db.orm.run(sql`
      INSERT INTO ${fileVersions} (id, file_id, blob_key, filename, size, sha256, uploaded_at, replaced_at)
      SELECT version_id, id, blob_key, filename, size, sha256, uploaded_at, ${ctx.now()} FROM ${files}
      WHERE ${holdsCurrent} AND ${fitsQuota(ctx.db.tables, target.ownerId, growth)} AND ${stillKept}`)
    const swap = ctx.db.orm
      .update(files)
      .set(changes)
      .where(and(holdsCurrent, sql`EXISTS (SELECT 1 FROM ${fileVersions} WHERE ${fileVersions.id} = ${current.versionId})`))
      .returning({ id: files.id })
    const prune = ctx.db.orm
      .delete(fileVersions)
      .where(and(eq(fileVersions.fileId, target.id), inArray(fileVersions.id, pruneIds), holdsNew))
    const switchLink = () =>
      ctx.db.orm
        .update(links)
        .set(linkChanges)
        .where(
          and(
            eq(
              links.fileId,
              sql`(SELECT ${files.id} FROM ${files} WHERE ${ownedBy(ctx.db.tables, target)} AND ${files.blobKey} = ${changes.blobKey})`,
            ),
            eq(links.isDefault, true),
          ),
        )
    // Built from `current`: a metadata PUT that commits between that read and this batch (it keeps the blob
    // key, so the swap still happens) is not reflected in the event's title or description.
    const announce = ctx.db.orm.run(
      enqueueEvent(ctx.db, {
        event: 'file.replaced',
        ownerId: target.ownerId,
        data: { file: toFileDto(replaced(current), ctx.config.publicUrl) },
        at: ctx.now(),
        onlyIf: holdsNew,
      }),
    )
    const [, swapped] = await ctx.db.orm.batch([
      keepCurrent,
      swap,
      ...(pruneIds.length > 0 ? [prune] : []),
      ...(linkChanges.updatedAt === undefined ? [] : [switchLink()]),
      announce,
      ...keptIn(ctx, key, replaced(current), holdsNew),
    ])
    if ((swapped as { id: string }[]).length > 0) return { discard: plan.prune.map((version) => version.blobKey), row: replaced(current) }
    // Refused: by the quota, or because the file changed meanwhile (another replacement, a restore, a deleted version).
    const now = await getOwnedFile(ctx, target) // 404 if it was deleted meanwhile
    const replanned = await replacementPlan(ctx, now)
    const unchanged = now.blobKey === current.blobKey && replanned.prune.map((version) => version.id).join() === pruneIds.join()
    if (unchanged) throw await quotaRefusal(ctx, target.ownerId, growth)
    // Each miss means another change committed; the first attempt's read is the route's, from before the upload
    // arrived, so it misses whatever committed meanwhile. Past MAX_SWAP_ATTEMPTS the answer says so (409), never
    // that the quota was the reason.
    if (attempt + 1 >= MAX_SWAP_ATTEMPTS) throw fileKeptChanging(attempt + 1)
    current = now
    plan = replanned
  }
}

/** The file and its replacement plan as they are now, when the route read nothing before the upload. */
async function seenNow(ctx: AppContext, target: Target): Promise<SeenBefore> {
  const current = await getOwnedFile(ctx, target)
  return { current, plan: await replacementPlan(ctx, current) }
}
