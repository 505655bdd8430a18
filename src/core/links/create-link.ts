import { type SQL, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { getOwnedFile } from '../files/get-owned-file'
import { type HeldKey, keptIn } from '../idempotency/keep'
import type { LinkInput } from './link-input'
import { insertAgreementText } from './agreements'
import { insertLinkWhere, type LinkTarget, prepareNewLink } from './new-link'
import type { LinkRow } from '../../db/tables'
import { badRequest } from '../../errors'
import { LINK_LIMITS } from '../../shared/link-shapes'

/**
 * A new link of an owner's file. The file is looked up first (404 before any password is hashed); the INSERT
 * itself is guarded by the owner and by the cap of links a file may have, so a file deleted or filled up
 * meanwhile gets no link. An Idempotency-Key's answer (`key`) is kept in the same transaction, if the link went in.
 */
export function createLink(
  ctx: AppContext,
  input: { ownerId: string; fileId: string; link: LinkInput; key?: HeldKey<LinkRow> },
): Promise<LinkRow> {
  const { files } = ctx.db.tables
  const found = () => getOwnedFile(ctx, { ownerId: input.ownerId, id: input.fileId })
  return addOwnedLink(ctx, {
    target: { fileId: input.fileId },
    owned: sql`EXISTS (SELECT 1 FROM ${files} WHERE id = ${input.fileId} AND owner_id = ${input.ownerId})`,
    found,
    link: input.link,
    key: input.key,
  })
}

/**
 * A new (not default) link of a file or a room (core/rooms): `found` answers the owner's 404 before any password
 * is hashed, and the INSERT holds only where `owned` still holds and the target has fewer than the cap of links.
 */
export async function addOwnedLink(
  ctx: AppContext,
  input: { target: LinkTarget; owned: SQL; found: () => Promise<unknown>; link: LinkInput; key?: HeldKey<LinkRow> },
): Promise<LinkRow> {
  const { links } = ctx.db.tables
  await input.found()
  const link = await prepareNewLink(ctx, input.link, { isDefault: false })
  const fileId = 'fileId' in input.target ? input.target.fileId : null
  const roomId = 'roomId' in input.target ? input.target.roomId : null
  const row: LinkRow = { ...link, fileId, roomId, seq: 0 } // seq: assigned by the database, never shown
  const siblings = fileId === null ? sql`room_id = ${roomId}` : sql`file_id = ${fileId}`
  const [inserted] = await ctx.db.orm.batch([
    ctx.db.orm.all<{ seq: number }>(
      sql`${insertLinkWhere(
        ctx.db.tables,
        link,
        input.target,
        sql`${input.owned} AND (SELECT count(*) FROM ${links} WHERE ${siblings}) < ${LINK_LIMITS.perFile}`,
      )} RETURNING seq`,
    ),
    // Version 1 of its agreement, kept for the acceptances (nothing when the link did not go in).
    ctx.db.orm.run(insertAgreementText(ctx.db.tables, link, ctx.now())),
    ...keptIn(ctx, input.key, row, sql`EXISTS (SELECT 1 FROM ${links} WHERE id = ${link.id})`),
  ])
  if (inserted.length === 0) {
    await input.found() // deleted meanwhile: 404
    throw badRequest(`A ${fileId === null ? 'room' : 'file'} may have at most ${LINK_LIMITS.perFile} links; delete one first`)
  }
  return { ...row, seq: Number(inserted[0]?.seq) }
}
