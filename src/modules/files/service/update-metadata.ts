import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import type { FileWithLink } from '../../../core/files/file-rows'
import { getOwnedFile } from '../../../core/files/get-owned-file'
import { greaterOf, type Tables } from '../../../db/database'
import { notFound } from '../../../errors'
import { isWellFormedId } from '../../../lib/ids'
import type { MetadataInput } from '../input'

export type Target = { ownerId: string; id: string }

/**
 * PUT without a PDF (a JSON body, or a form without a file part): metadata only, all or nothing. Omitted fields
 * stay as they are; the two switches are the default link's, changed in the same transaction.
 */
export async function updateMetadata(ctx: AppContext, input: Target & { metadata: MetadataInput }): Promise<FileWithLink> {
  const { files, links } = ctx.db.tables
  const { allowDownload, searchEngineVisible, ...fileFields } = input.metadata
  const now = ctx.now()
  if (!isWellFormedId(input.id)) throw notFound()
  const owned = ownedBy(ctx.db.tables, input)
  const updateFile = ctx.db.orm
    .update(files)
    .set({ ...fileFields, updatedAt: nextUpdatedAt(ctx.db.tables, now) })
    .where(owned)
    .returning({ id: files.id })
  const updateLink = ctx.db.orm
    .update(links)
    .set({ allowDownload, searchEngineVisible, updatedAt: now })
    .where(and(eq(links.fileId, sql`(SELECT ${files.id} FROM ${files} WHERE ${owned})`), eq(links.isDefault, true)))
  const hasSwitches = allowDownload !== undefined || searchEngineVisible !== undefined
  const [updated] = hasSwitches ? await ctx.db.orm.batch([updateFile, updateLink]) : [await updateFile]
  if (updated.length === 0) throw notFound()
  return getOwnedFile(ctx, input)
}

/** Each successful PUT moves updatedAt forward, even two within the same millisecond. */
export const nextUpdatedAt = ({ files }: Tables, now: number) => greaterOf(now, sql`${files.updatedAt} + 1`)

/** The condition of the file of this owner: ownership is in every statement. */
export const ownedBy = ({ files }: Tables, target: Target) => and(eq(files.id, target.id), eq(files.ownerId, target.ownerId))
