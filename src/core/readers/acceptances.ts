import { and, desc, eq, inArray } from 'drizzle-orm'
import { linkOwnedBy } from '../links/owned-links'
import type { AppContext } from '../context'
import type { AcceptanceRow } from '../../db/tables'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

export const MAX_ACCEPTANCES = 1000

type Scope = { ownerId: string } & ({ fileId: string } | { linkId: string })

/**
 * The acceptances of an owner's file (through any link) or link, newest first, with every version of the
 * agreement texts they name. Another user's file or link is the same 404 as a missing one.
 */
export async function listAcceptances(ctx: AppContext, scope: Scope) {
  const { acceptances, agreementTexts, links } = ctx.db.tables
  const owned = linkOwnedBy(ctx.db.tables, scope.ownerId) // a file's links, or a room's (docs/rooms.md)
  const id = 'fileId' in scope ? scope.fileId : scope.linkId
  if (!isWellFormedId(id)) throw notFound('fileId' in scope ? 'File not found' : 'Link not found')
  const linkRows = await ctx.db.orm
    .select({ id: links.id })
    .from(links)
    .where(and('fileId' in scope ? eq(links.fileId, scope.fileId) : eq(links.id, scope.linkId), owned))
  if (linkRows.length === 0) {
    // A file always has its default link: no links means no such file of this owner.
    throw notFound('fileId' in scope ? 'File not found' : 'Link not found')
  }
  const linkIds = linkRows.map((row) => row.id)
  const rows: AcceptanceRow[] = await ctx.db.orm
    .select()
    .from(acceptances)
    .where(inArray(acceptances.linkId, linkIds))
    .orderBy(desc(acceptances.seq))
    .limit(MAX_ACCEPTANCES)
  const texts = await ctx.db.orm.select().from(agreementTexts).where(inArray(agreementTexts.linkId, linkIds))
  const named = new Set(rows.map((row) => `${row.linkId}\n${row.version}`))
  return { rows, texts: texts.filter((text) => named.has(`${text.linkId}\n${text.version}`)) }
}
