import { sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { getOwnedFile } from '../../../core/files/get-owned-file'
import type { LinkInput } from '../../../core/links/link-input'
import { prepareNewLink } from '../../../core/links/new-link'
import { files, type LinkRow, links } from '../../../db/schema'
import { badRequest } from '../../../errors'
import { LINK_LIMITS } from '../../../shared/link-shapes'

/**
 * A new link of an owner's file. The file is looked up first (404 before any password is hashed); the INSERT
 * itself is guarded by the owner and by the cap of links a file may have, so a file deleted or filled up
 * meanwhile gets no link.
 */
export async function createLink(ctx: AppContext, input: { ownerId: string; fileId: string; link: LinkInput }): Promise<LinkRow> {
  await getOwnedFile(ctx, { ownerId: input.ownerId, id: input.fileId })
  const link = await prepareNewLink(ctx, input.link, { isDefault: false })
  const inserted = await ctx.db.all<{ seq: number }>(sql`
    INSERT INTO ${links} (id, file_id, slug, is_default, label, allow_download, search_engine_visible, expires_at, max_views,
                          password_hash, disabled, views, created_at, updated_at)
    SELECT ${link.id}, ${input.fileId}, ${link.slug}, 0, ${link.label}, ${link.allowDownload ? 1 : 0}, ${link.searchEngineVisible ? 1 : 0},
           ${link.expiresAt}, ${link.maxViews}, ${link.passwordHash}, ${link.disabled ? 1 : 0}, 0, ${link.createdAt}, ${link.updatedAt}
    WHERE EXISTS (SELECT 1 FROM ${files} WHERE id = ${input.fileId} AND owner_id = ${input.ownerId})
      AND (SELECT count(*) FROM ${links} WHERE file_id = ${input.fileId}) < ${LINK_LIMITS.perFile}
    RETURNING seq`)
  if (inserted.length === 0) {
    await getOwnedFile(ctx, { ownerId: input.ownerId, id: input.fileId }) // deleted meanwhile: 404
    throw badRequest(`A file may have at most ${LINK_LIMITS.perFile} links; delete one first`)
  }
  return { ...link, fileId: input.fileId, seq: Number(inserted[0]?.seq) }
}
