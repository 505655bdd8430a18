import { type SQL, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { AppContext } from '../context'
import { fitsQuota, quotaGrowth, quotaRefusal } from './quota'
import type { FileWithLink } from './file-rows'
import { type HeldKey, keptIn } from '../idempotency/keep'
import { insertLinkWhere, type NewLink, prepareNewLink } from '../links/new-link'
import { enqueueEvent } from '../webhooks/outbox'
import { randomId } from '../../lib/ids'
import type { WebhookEvent } from '../../shared/webhook-shapes'
import type { Upload } from '../uploads/receive-upload'
import type { NewFileInput } from '../../routes/files/input'
import { toFileDto } from './presenter'

/**
 * Turns a received upload and its checked form (routes/files/input.ts `newFileFromForm`) into a committed file: the
 * default link with the instance policy (its password hashed before anything is stored), then `commitNewFile`.
 * Under an Idempotency-Key (`key`), the same transaction keeps the answer, only if the file went in. The upload's
 * temp file is the upload's to discard (receive-upload.ts).
 */
export async function createFile(
  ctx: AppContext,
  input: NewFileInput & { upload: Upload; key?: HeldKey<FileWithLink> },
): Promise<FileWithLink> {
  const { upload, metadata } = input
  const file = upload.file
  if (!file) throw new Error('createFile needs an upload with its PDF (routes/files/input.ts newFileFromForm checks it)')
  const link = await prepareNewLink(ctx, input.defaultLink, { isDefault: true })
  const row = newFileRow(upload.ownerId, link, {
    filename: input.filename,
    title: metadata.title ?? '',
    description: metadata.description ?? '',
    size: file.size,
    sha256: file.sha256,
  })
  const seq = await commitNewFile(ctx, {
    row,
    link,
    path: file.temp.path,
    event: { event: 'file.uploaded', data: { file: toFileDto(row, ctx.config.publicUrl) } },
    alongside: (fileWentIn) => keptIn(ctx, input.key, row, fileWentIn),
  })
  if (seq === undefined) throw await quotaRefusal(ctx, row.ownerId, quotaGrowth(row.size))
  ctx.metrics.uploadStored('new', row.size)
  return { ...row, seq }
}

/** A new file's row (its id, blob key and version id fresh) with its default link's public fields. */
export function newFileRow(
  ownerId: string,
  link: NewLink,
  fields: Pick<FileWithLink, 'filename' | 'title' | 'description' | 'size' | 'sha256'> &
    Partial<Pick<FileWithLink, 'sourceRequestId' | 'sourceName' | 'sourceEmail' | 'sourceNote'>>,
): FileWithLink {
  const now = link.createdAt
  return {
    seq: 0, // assigned by the database
    id: randomId(),
    ownerId,
    slug: link.slug,
    blobKey: randomId(),
    sourceRequestId: null,
    sourceName: null,
    sourceEmail: null,
    sourceNote: null,
    ...fields,
    allowDownload: link.allowDownload,
    searchEngineVisible: link.searchEngineVisible,
    views: 0,
    createdAt: now,
    updatedAt: now,
    uploadedAt: now,
    versionId: randomId(),
  }
}

/** What commits a new file (`commitNewFile`). */
export type NewFileCommit = {
  row: FileWithLink
  link: NewLink
  /** The PDF to store: the upload's temp file. */
  path: string
  /** A condition of the committing INSERT besides the owner's quota (a file request still open, not full). */
  onlyIf?: SQL
  /** The webhook event the new file is announced with, only if it went in. */
  event: { event: WebhookEvent; data: Record<string, unknown> }
  /** More statements of the same transaction, each acting only if the file went in (`fileWentIn`). */
  alongside?: (fileWentIn: SQL) => BatchItem<'sqlite'>[]
}

/**
 * Stores a new file: the blob moved into place, then in one transaction the row — guarded by the quota (and
 * `onlyIf`) in the same statement, so concurrent writes can never both slip under a limit — its default link, its
 * webhook deliveries and whatever goes `alongside`. The blob is durable before the row that points at it exists;
 * if the row is refused the blob is removed, and if the process dies in between the start-up sweep moves it to
 * orphans/. Answers the row's `seq`, or undefined when the INSERT's conditions refused it (nothing stored).
 */
export async function commitNewFile(ctx: AppContext, commit: NewFileCommit): Promise<number | undefined> {
  const { files } = ctx.db.tables
  const { row, link } = commit
  const now = link.createdAt
  const fileWentIn = sql`EXISTS (SELECT 1 FROM ${files} WHERE id = ${row.id})`
  await ctx.blobs.put(row.blobKey, { file: commit.path })
  const [inserted] = await ctx.db.orm
    .batch([
      ctx.db.orm.all<{ seq: number }>(sql`
    INSERT INTO ${files} (id, owner_id, blob_key, filename, title, description, size, sha256, views, created_at, updated_at, uploaded_at,
                          version_id, source_request_id, source_name, source_email, source_note)
    SELECT ${row.id}, ${row.ownerId}, ${row.blobKey}, ${row.filename}, ${row.title}, ${row.description},
           ${row.size}, ${row.sha256}, 0, ${now}, ${now}, ${now}, ${row.versionId},
           ${row.sourceRequestId}, ${row.sourceName}, ${row.sourceEmail}, ${row.sourceNote}
    WHERE ${fitsQuota(ctx.db.tables, row.ownerId, quotaGrowth(row.size))}${commit.onlyIf ? sql` AND ${commit.onlyIf}` : sql``}
    RETURNING seq`),
      // Only when the file went in (the quota allowed it): the same transaction, so a file never lacks its link.
      ctx.db.orm.run(insertLinkWhere(ctx.db.tables, link, { fileId: row.id }, fileWentIn)),
      // The owner's webhooks hear of it only if the file went in: a refused upload sends nothing.
      ctx.db.orm.run(enqueueEvent(ctx.db, { ...commit.event, ownerId: row.ownerId, at: now, onlyIf: fileWentIn })),
      ...(commit.alongside?.(fileWentIn) ?? []),
    ])
    .catch(async (error) => {
      await ctx.blobs.delete(row.blobKey).catch(() => {}) // the row never existed: the blob goes too (else the start-up sweep moves it aside)
      throw error
    })
  if (inserted.length === 0) {
    await ctx.blobs.delete(row.blobKey)
    return undefined
  }
  ctx.jobs.wake('outbox')
  return Number(inserted[0]?.seq)
}
