import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { userNotFound } from '../../../errors'
import { findUserByName } from './find-user'

/** Sets plan limits; `null` means unlimited, `undefined` leaves a limit as it is. */
export async function setQuota(
  ctx: AppContext,
  input: { name: string; maxBytes?: number | null; maxFiles?: number | null },
): Promise<UserRow> {
  const { users } = ctx.db.tables
  const user = await findUserByName(ctx, input.name)
  const [updated] = await ctx.db.orm
    .update(users)
    .set({
      ...(input.maxBytes !== undefined && { maxBytes: input.maxBytes }),
      ...(input.maxFiles !== undefined && { maxFiles: input.maxFiles }),
    })
    .where(eq(users.id, user.id))
    .returning()
  if (!updated) throw userNotFound(input.name)
  return updated
}
