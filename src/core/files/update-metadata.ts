import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { FileWithLink } from './file-rows'
import { getOwnedFile } from './get-owned-file'
import { MAX_SWAP_ATTEMPTS } from './versions'
import { type HeldKey, keptFirst } from '../idempotency/keep'
import { greaterOf, type Tables } from '../../db/database'
import { fileKeptChanging, notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { MetadataInput } from '../../routes/files/input'

export type Target = { ownerId: string; id: string }

/**
 * PUT without a PDF (a JSON body, or a form without a file part): metadata only, all or nothing. Omitted fields
 * stay as they are; the two switches are the default link's, changed in the same transaction. Compare-and-swap
 * on updatedAt, like a replacement: the answer is the row exactly as this change wrote it (and so is the answer
 * an Idempotency-Key keeps with it, `key`); a change that commits between the read and the write makes this one
 * apply again on top of it (last writer wins). `seen`: the file as the route read it, for the first attempt.
 */
export async function updateMetadata(
  ctx: AppContext,
  input: Target & { metadata: MetadataInput; seen?: FileWithLink; key?: HeldKey<FileWithLink> },
): Promise<FileWithLink> {
  const { files, links } = ctx.db.tables
  const { allowDownload, searchEngineVisible, ...fileFields } = input.metadata
  if (!isWellFormedId(input.id)) throw notFound()
  const sent = Object.fromEntries(Object.entries(fileFields).filter(([, value]) => value !== undefined))
  const hasSwitches = allowDownload !== undefined || searchEngineVisible !== undefined
  let current = input.seen ?? (await getOwnedFile(ctx, input))
  for (let attempt = 1; ; attempt++) {
    const now = ctx.now()
    const updated: FileWithLink = {
      ...current,
      ...sent,
      updatedAt: Math.max(now, current.updatedAt + 1),
      allowDownload: allowDownload ?? current.allowDownload,
      searchEngineVisible: searchEngineVisible ?? current.searchEngineVisible,
    }
    const asRead = and(ownedBy(ctx.db.tables, input), eq(files.updatedAt, current.updatedAt))
    // Both read before the file's row changes: the answer is kept, and the link changed, only if the swap happens.
    const swaps = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${asRead})`
    const updateLink = ctx.db.orm
      .update(links)
      .set({ allowDownload, searchEngineVisible, updatedAt: now })
      .where(and(eq(links.fileId, sql`(SELECT ${files.id} FROM ${files} WHERE ${asRead})`), eq(links.isDefault, true)))
    const updateFile = ctx.db.orm
      .update(files)
      .set({ ...fileFields, updatedAt: updated.updatedAt })
      .where(asRead)
      .returning({ id: files.id })
    const results = await ctx.db.orm.batch(keptFirst(ctx, input.key, updated, swaps, hasSwitches ? [updateLink, updateFile] : [updateFile]))
    if ((results.at(-1) as { id: string }[]).length > 0) return updated
    if (attempt >= MAX_SWAP_ATTEMPTS) throw fileKeptChanging(attempt)
    current = await getOwnedFile(ctx, input) // 404 if it was deleted meanwhile
  }
}

/** Each successful PUT moves updatedAt forward, even two within the same millisecond. */
export const nextUpdatedAt = ({ files }: Tables, now: number) => greaterOf(now, sql`${files.updatedAt} + 1`)

/** The condition of the file of this owner: ownership is in every statement. */
export const ownedBy = ({ files }: Tables, target: Target) => and(eq(files.id, target.id), eq(files.ownerId, target.ownerId))
