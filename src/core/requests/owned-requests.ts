import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { RequestRow } from '../../db/tables'
import { requestNotFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

/** One request of its owner; a malformed id, an unknown one and another user's answer the same 404. */
export async function getOwnedRequest(ctx: AppContext, input: { ownerId: string; id: string }): Promise<RequestRow> {
  const { requests } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw requestNotFound()
  const [row] = await ctx.db.orm
    .select()
    .from(requests)
    .where(and(eq(requests.id, input.id), eq(requests.ownerId, input.ownerId)))
  if (!row) throw requestNotFound()
  return row
}
