import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { fitsQuota, quotaGrowth, quotaRefusal } from './quota'
import type { FileWithLink } from './file-rows'
import { type HeldKey, keptIn } from '../idempotency/keep'
import { insertLinkWhere, prepareNewLink } from '../links/new-link'
import { enqueueEvent } from '../webhooks/outbox'
import { randomId } from '../../lib/ids'
import type { Upload } from '../uploads/receive-upload'
import type { NewFileInput } from '../../routes/files/input'
import { toFileDto } from './presenter'

/**
 * Turns a received upload and its checked form (routes/files/input.ts `newFileFromForm`) into a committed file: the
 * default link with the instance policy (its password hashed before anything is stored), the blob moved into
 * place, then the row inserted
 * the row — guarded by the quota in the same statement — its default link and the `file.uploaded` webhook
 * deliveries, in one transaction. The blob is durable before the row that points at
 * it exists; if the row is refused the blob is removed, and if the process dies in between the start-up
 * sweep moves it to orphans/. The upload's temp file is the upload's to discard (receive-upload.ts). Under an
 * Idempotency-Key (`key`), the same transaction keeps the answer, only if the file went in.
 */
export async function createFile(
  ctx: AppContext,
  input: NewFileInput & { upload: Upload; key?: HeldKey<FileWithLink> },
): Promise<FileWithLink> {
  const { files } = ctx.db.tables
  const { upload, metadata } = input
  const file = upload.file
  if (!file) throw new Error('createFile needs an upload with its PDF (routes/files/input.ts newFileFromForm checks it)')
  const link = await prepareNewLink(ctx, input.defaultLink, { isDefault: true })
  const now = link.createdAt
  const row: FileWithLink = {
    seq: 0, // assigned by the database
    id: randomId(),
    ownerId: upload.ownerId,
    slug: link.slug,
    blobKey: randomId(),
    filename: input.filename,
    title: metadata.title ?? '',
    description: metadata.description ?? '',
    size: file.size,
    sha256: file.sha256,
    allowDownload: link.allowDownload,
    searchEngineVisible: link.searchEngineVisible,
    views: 0,
    createdAt: now,
    updatedAt: now,
    uploadedAt: now,
    versionId: randomId(),
    sourceRequestId: null,
    sourceName: null,
    sourceEmail: null,
    sourceNote: null,
  }

  const growth = quotaGrowth(row.size)
  const fileWentIn = sql`EXISTS (SELECT 1 FROM ${files} WHERE id = ${row.id})`
  await ctx.blobs.put(row.blobKey, { file: file.temp.path })
  const [inserted] = await ctx.db.orm
    .batch([
      ctx.db.orm.all<{ seq: number }>(sql`
    INSERT INTO ${files} (id, owner_id, blob_key, filename, title, description, size, sha256, views, created_at, updated_at, uploaded_at, version_id)
    SELECT ${row.id}, ${row.ownerId}, ${row.blobKey}, ${row.filename}, ${row.title}, ${row.description},
           ${row.size}, ${row.sha256}, 0, ${now}, ${now}, ${now}, ${row.versionId}
    WHERE ${fitsQuota(ctx.db.tables, row.ownerId, growth)}
    RETURNING seq`),
      // Only when the file went in (the quota allowed it): the same transaction, so a file never lacks its link.
      ctx.db.orm.run(insertLinkWhere(ctx.db.tables, link, row.id, fileWentIn)),
      // The owner's webhooks hear of it only if the file went in: a refused upload sends nothing.
      ctx.db.orm.run(
        enqueueEvent(ctx.db, {
          event: 'file.uploaded',
          ownerId: row.ownerId,
          data: { file: toFileDto(row, ctx.config.publicUrl) },
          at: now,
          onlyIf: fileWentIn,
        }),
      ),
      ...keptIn(ctx, input.key, row, fileWentIn),
    ])
    .catch(async (error) => {
      await ctx.blobs.delete(row.blobKey).catch(() => {}) // the row never existed: the blob goes too (else the start-up sweep moves it aside)
      throw error
    })
  if (inserted.length === 0) {
    await ctx.blobs.delete(row.blobKey)
    throw await quotaRefusal(ctx, row.ownerId, growth)
  }
  ctx.jobs.wake('outbox')
  ctx.metrics.uploadStored('new', row.size)
  return { ...row, seq: Number(inserted[0]?.seq) }
}
