import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { type HeldKey, keptFirst } from '../idempotency/keep'
import { getOwnedRequest } from './owned-requests'

/** What deleting a request answers: its id, and its title for the audit log. */
export type DeletedRequest = { id: string; title: string }

/**
 * Deletes a request: its page answers 404 from then on, and its mailed codes go with it. The files that arrived
 * through it stay, ordinary files of the owner, their `source` still naming the request. An Idempotency-Key's
 * answer (`key`) is kept in the delete's transaction, if the request was still there.
 */
export async function deleteRequest(
  ctx: AppContext,
  input: { ownerId: string; id: string; key?: HeldKey<DeletedRequest> },
): Promise<DeletedRequest> {
  const { requests } = ctx.db.tables
  const row = await getOwnedRequest(ctx, input)
  const answer = { id: row.id, title: row.title }
  const owned = and(eq(requests.id, input.id), eq(requests.ownerId, input.ownerId))
  await ctx.db.orm.batch(
    keptFirst(ctx, input.key, answer, sql`EXISTS (SELECT 1 FROM ${requests} WHERE ${owned})`, [ctx.db.orm.delete(requests).where(owned)]),
  )
  return answer
}
