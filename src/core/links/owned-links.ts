import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { Tables } from '../../db/database'
import type { LinkRow } from '../../db/tables'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

/**
 * Who asks for links: an owner (the API; only the links of their own files, another user's answering 404 like
 * a missing one) or the operator (the CLI; any link).
 */
export type Asker = { ownerId: string } | { operator: true }

export const linkNotFound = () => notFound('Link not found')

/** The condition "this link's file or room belongs to the asker", for every query on links. */
export function linkOfAsker(tables: Tables, asker: Asker): SQL | undefined {
  if ('operator' in asker) return undefined
  return linkOwnedBy(tables, asker.ownerId)
}

/** The condition "this link's file, or its room (docs/rooms.md), belongs to `ownerId`". */
export function linkOwnedBy({ files, rooms, links }: Tables, ownerId: string): SQL {
  return sql`(${links.fileId} IN (SELECT ${files.id} FROM ${files} WHERE ${files.ownerId} = ${ownerId})
    OR ${links.roomId} IN (SELECT ${rooms.id} FROM ${rooms} WHERE ${rooms.ownerId} = ${ownerId}))`
}

/** The condition "this file belongs to the asker". */
export function fileOfAsker({ files }: Tables, asker: Asker, fileId: string): SQL | undefined {
  return 'operator' in asker ? eq(files.id, fileId) : and(eq(files.id, fileId), eq(files.ownerId, asker.ownerId))
}

/** One link the asker may see, or the 404 of a missing one. */
export async function getLink(ctx: AppContext, input: { asker: Asker; linkId: string }): Promise<LinkRow> {
  const { links } = ctx.db.tables
  if (!isWellFormedId(input.linkId)) throw linkNotFound()
  const [row] = await ctx.db.orm
    .select()
    .from(links)
    .where(and(eq(links.id, input.linkId), linkOfAsker(ctx.db.tables, input.asker)))
  if (!row) throw linkNotFound()
  return row
}
