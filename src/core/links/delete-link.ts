import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { type HeldKey, keptFirst } from '../idempotency/keep'
import { defaultLinkCannotBeDeleted } from '../../errors'
import { type Asker, getLink, linkOfAsker } from './owned-links'

/** What deleting a link answers: its id, and its file's or its room's for the audit log. */
export type DeletedLink = { id: string; fileId: string | null; roomId: string | null }

/**
 * Deletes a link: its URL answers 404 from then on, and its view marks go with it (the file's total views
 * stay). A file's or a room's default link is its shareUrl and cannot be deleted (409): it can be disabled, or the file
 * deleted. An Idempotency-Key's answer (`key`) is kept in the delete's transaction, if the link was still there.
 */
export async function deleteLink(
  ctx: AppContext,
  input: { asker: Asker; linkId: string; key?: HeldKey<DeletedLink> },
): Promise<DeletedLink> {
  const { links } = ctx.db.tables
  const link = await getLink(ctx, input)
  if (link.isDefault) throw defaultLinkCannotBeDeleted()
  const answer = { id: link.id, fileId: link.fileId, roomId: link.roomId }
  const deletable = and(eq(links.id, input.linkId), eq(links.isDefault, false), linkOfAsker(ctx.db.tables, input.asker))
  await ctx.db.orm.batch(
    keptFirst(ctx, input.key, answer, sql`EXISTS (SELECT 1 FROM ${links} WHERE ${deletable})`, [ctx.db.orm.delete(links).where(deletable)]),
  )
  return answer
}
