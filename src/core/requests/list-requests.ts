import { desc, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { RequestRow } from '../../db/tables'

/** An owner's requests, newest first: all of them (a user has at most REQUEST_LIMITS.perUser). */
export async function listRequests(ctx: AppContext, input: { ownerId: string }): Promise<RequestRow[]> {
  const { requests } = ctx.db.tables
  return ctx.db.orm.select().from(requests).where(eq(requests.ownerId, input.ownerId)).orderBy(desc(requests.seq))
}
