import { sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { fitsQuota, quotaGrowth, quotaRefusal } from '../../../core/files/quota'
import { files, type FileRow } from '../../../db/schema'
import { badRequest } from '../../../errors'
import { randomId } from '../../../lib/ids'
import type { MultipartBody } from '../../../uploads/receive-multipart'
import { filenameFromPart, metadataFromForm } from '../input'

/**
 * Turns a received upload into a committed file: validate the fields, move the blob into place, then insert
 * the row — guarded by the quota in the same statement. The blob is durable before the row that points at
 * it exists; if the row is refused the blob is removed, and if the process dies in between the start-up
 * sweep moves it to orphans/. The received temp file is not this verb's to remove: the upload receiver discards it.
 */
export async function createFile(ctx: AppContext, input: { ownerId: string; body: MultipartBody }): Promise<FileRow> {
  const { file, fields } = input.body
  if (!file) throw badRequest('The request has no file part; send the PDF as a part named "file" (curl -F "file=@report.pdf")')
  const metadata = metadataFromForm(fields)
  const now = ctx.now()
  const row: FileRow = {
    seq: 0, // assigned by the database
    id: randomId(),
    ownerId: input.ownerId,
    slug: randomId(),
    blobKey: randomId(),
    filename: metadata.filename ?? filenameFromPart(file.clientFilename),
    title: metadata.title ?? '',
    description: metadata.description ?? '',
    size: file.size,
    sha256: file.sha256,
    allowDownload: metadata.allowDownload ?? true,
    searchEngineVisible: metadata.searchEngineVisible ?? false,
    views: 0,
    createdAt: now,
    updatedAt: now,
  }

  const growth = quotaGrowth(row.size)
  await ctx.blobs.put(row.blobKey, { file: file.temp.path })
  const inserted = await ctx.db
    .all<{ seq: number }>(sql`
    INSERT INTO ${files} (id, owner_id, slug, blob_key, filename, title, description, size, sha256,
                          allow_download, search_engine_visible, views, created_at, updated_at)
    SELECT ${row.id}, ${row.ownerId}, ${row.slug}, ${row.blobKey}, ${row.filename}, ${row.title}, ${row.description},
           ${row.size}, ${row.sha256}, ${row.allowDownload ? 1 : 0}, ${row.searchEngineVisible ? 1 : 0}, 0, ${now}, ${now}
    WHERE ${fitsQuota(row.ownerId, growth)}
    RETURNING seq`)
    .catch(async (error) => {
      await ctx.blobs.delete(row.blobKey).catch(() => {}) // the row never existed: the blob goes too (else the start-up sweep moves it aside)
      throw error
    })
  if (inserted.length === 0) {
    await ctx.blobs.delete(row.blobKey)
    throw await quotaRefusal(ctx, row.ownerId, growth)
  }
  return { ...row, seq: Number(inserted[0]?.seq) }
}
