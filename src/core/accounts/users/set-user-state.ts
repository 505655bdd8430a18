import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { lastAdmin, userIdNotFound } from '../../../errors'
import { keepsAnEnabledAdmin } from './last-admin'

/** What an admin may change of a user besides limits: enabled or disabled, admin or not. */
export type UserState = { disabled?: boolean; admin?: boolean }

/**
 * Disables or enables a user, or makes them an admin or not. A disabled user can neither sign in nor use a token
 * (their tokens stay, and work again once enabled). The server always keeps one enabled admin: a change that
 * would leave none is refused (409), decided inside the UPDATE, so two admins demoting each other at once cannot
 * both succeed.
 */
export async function setUserState(ctx: AppContext, input: { id: string } & UserState): Promise<UserRow> {
  const { users } = ctx.db.tables
  const endsAdmin = input.admin === false || input.disabled === true
  const [updated] = await ctx.db.orm
    .update(users)
    .set({
      ...(input.admin !== undefined && { isAdmin: input.admin }),
      ...(input.disabled !== undefined && { disabledAt: input.disabled ? ctx.now() : null }),
    })
    .where(and(eq(users.id, input.id), endsAdmin ? keepsAnEnabledAdmin(users, input.id) : undefined))
    .returning()
  if (updated) return updated
  const [exists] = await ctx.db.orm.select({ id: users.id }).from(users).where(eq(users.id, input.id))
  throw exists ? lastAdmin() : userIdNotFound()
}
