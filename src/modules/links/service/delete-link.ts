import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { defaultLinkCannotBeDeleted } from '../../../errors'
import { type Asker, getLink, linkOfAsker } from './owned-links'

/**
 * Deletes a link: its URL answers 404 from then on, and its view marks go with it (the file's total views
 * stay). A file's default link is its shareUrl and cannot be deleted (409): it can be disabled, or the file
 * deleted.
 */
export async function deleteLink(ctx: AppContext, input: { asker: Asker; linkId: string }): Promise<{ id: string; fileId: string }> {
  const { links } = ctx.db.tables
  const link = await getLink(ctx, input)
  if (link.isDefault) throw defaultLinkCannotBeDeleted()
  await ctx.db.orm.delete(links).where(and(eq(links.id, input.linkId), eq(links.isDefault, false), linkOfAsker(ctx.db.tables, input.asker)))
  return { id: link.id, fileId: link.fileId }
}
