import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { getOwnedFile } from '../files/get-owned-file'
import { type HeldKey, keptIn } from '../idempotency/keep'
import type { LinkInput } from './link-input'
import { insertAgreementText } from './agreements'
import { insertLinkWhere, prepareNewLink } from './new-link'
import type { LinkRow } from '../../db/tables'
import { badRequest } from '../../errors'
import { LINK_LIMITS } from '../../shared/link-shapes'

/**
 * A new link of an owner's file. The file is looked up first (404 before any password is hashed); the INSERT
 * itself is guarded by the owner and by the cap of links a file may have, so a file deleted or filled up
 * meanwhile gets no link. An Idempotency-Key's answer (`key`) is kept in the same transaction, if the link went in.
 */
export async function createLink(
  ctx: AppContext,
  input: { ownerId: string; fileId: string; link: LinkInput; key?: HeldKey<LinkRow> },
): Promise<LinkRow> {
  const { files, links } = ctx.db.tables
  await getOwnedFile(ctx, { ownerId: input.ownerId, id: input.fileId })
  const link = await prepareNewLink(ctx, input.link, { isDefault: false })
  const row: LinkRow = { ...link, fileId: input.fileId, seq: 0 } // seq: assigned by the database, never shown
  const [inserted] = await ctx.db.orm.batch([
    ctx.db.orm.all<{ seq: number }>(
      sql`${insertLinkWhere(
        ctx.db.tables,
        link,
        input.fileId,
        sql`EXISTS (SELECT 1 FROM ${files} WHERE id = ${input.fileId} AND owner_id = ${input.ownerId})
        AND (SELECT count(*) FROM ${links} WHERE file_id = ${input.fileId}) < ${LINK_LIMITS.perFile}`,
      )} RETURNING seq`,
    ),
    // Version 1 of its agreement, kept for the acceptances (nothing when the link did not go in).
    ctx.db.orm.run(insertAgreementText(ctx.db.tables, link, ctx.now())),
    ...keptIn(ctx, input.key, row, sql`EXISTS (SELECT 1 FROM ${links} WHERE id = ${link.id})`),
  ])
  if (inserted.length === 0) {
    await getOwnedFile(ctx, { ownerId: input.ownerId, id: input.fileId }) // deleted meanwhile: 404
    throw badRequest(`A file may have at most ${LINK_LIMITS.perFile} links; delete one first`)
  }
  return { ...row, seq: Number(inserted[0]?.seq) }
}
