import { and, eq, type SQL } from 'drizzle-orm'
import { linkOwnedBy } from '../links/owned-links'
import type { AppContext } from '../context'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

/** Whose numbers: all visits of one file (through any of its links), or of one link. */
export type ScopeInput = { ownerId: string } & ({ fileId: string } | { linkId: string })

/** The condition on `visits` for an owner's file or link; another user's, or a missing one, is the same 404. */
export async function visitScope(ctx: AppContext, input: ScopeInput): Promise<SQL> {
  const { files, links, visits } = ctx.db.tables
  if ('fileId' in input) {
    if (!isWellFormedId(input.fileId)) throw notFound()
    const [row] = await ctx.db.orm
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, input.fileId), eq(files.ownerId, input.ownerId)))
    if (!row) throw notFound()
    return eq(visits.fileId, row.id)
  }
  if (!isWellFormedId(input.linkId)) throw notFound('Link not found')
  const [row] = await ctx.db.orm
    .select({ id: links.id })
    .from(links)
    .where(
      // A file's link, or a room's (docs/rooms.md): its visits are the ones through it, whichever document.
      and(eq(links.id, input.linkId), linkOwnedBy(ctx.db.tables, input.ownerId)),
    )
  if (!row) throw notFound('Link not found')
  return eq(visits.linkId, row.id)
}
