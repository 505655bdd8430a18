import { and, eq, sql } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import { greaterOf } from '../../db/database'
import type { RequestRow } from '../../db/tables'
import { requestNotFound } from '../../errors'
import type { AppContext } from '../context'
import { hashPassword } from '../passwords/argon2'
import { getOwnedRequest } from './owned-requests'
import type { RequestInput } from './request-input'
import { checkedRoom, checkRequest } from './request-policy'

/**
 * Changes the fields sent (omitted: unchanged; null clears message, ownerName, expiresAt and password), judged on
 * the request as it will be (request-policy.ts). A new or removed password ends every unlock a sender holds (the
 * cookie is signed over the hash). A lower maxFiles may leave a request full, a higher one opens it again.
 */
export async function updateRequest(ctx: AppContext, input: { ownerId: string; id: string; request: RequestInput }): Promise<RequestRow> {
  const { requests } = ctx.db.tables
  const current = await getOwnedRequest(ctx, input) // 404 before a password is hashed
  const { password, roomId, ...fields } = input.request
  const now = ctx.now()
  checkRequest(ctx.config, now, input.request, { ...current, ...fields })
  const changes: SQLiteUpdateSetSource<typeof requests> = {
    ...fields,
    ...(roomId !== undefined && { roomId: await checkedRoom(ctx, input.ownerId, roomId) }),
    // Each change moves updatedAt forward, even two within the same millisecond.
    updatedAt: greaterOf(now, sql`${requests.updatedAt} + 1`),
  }
  if (password !== undefined) changes.passwordHash = password === null ? null : await hashPassword(password)
  const [row] = await ctx.db.orm
    .update(requests)
    .set(changes)
    .where(and(eq(requests.id, input.id), eq(requests.ownerId, input.ownerId)))
    .returning()
  if (!row) throw requestNotFound() // deleted meanwhile
  return row
}
