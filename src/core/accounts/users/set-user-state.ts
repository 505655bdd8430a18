import { and, eq, isNull, ne, not, or, sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { lastAdmin, userIdNotFound } from '../../../errors'

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
  const enabledAdmin = and(eq(users.isAdmin, true), isNull(users.disabledAt))
  const anotherEnabledAdmin = sql`EXISTS (SELECT 1 FROM ${users} AS other WHERE other.id <> ${input.id} AND other.is_admin = ${true} AND other.disabled_at IS NULL)`
  const [updated] = await ctx.db.orm
    .update(users)
    .set({
      ...(input.admin !== undefined && { isAdmin: input.admin }),
      ...(input.disabled !== undefined && { disabledAt: input.disabled ? ctx.now() : null }),
    })
    .where(and(eq(users.id, input.id), endsAdmin ? or(not(enabledAdmin!), anotherEnabledAdmin) : undefined))
    .returning()
  if (updated) return updated
  const [exists] = await ctx.db.orm.select({ id: users.id }).from(users).where(eq(users.id, input.id))
  throw exists ? lastAdmin() : userIdNotFound()
}

/** Whether removing this user would leave no enabled admin. */
export async function isLastAdmin(ctx: AppContext, id: string): Promise<boolean> {
  const { users } = ctx.db.tables
  const [other] = await ctx.db.orm
    .select({ id: users.id })
    .from(users)
    .where(and(ne(users.id, id), eq(users.isAdmin, true), isNull(users.disabledAt)))
    .limit(1)
  const [self] = await ctx.db.orm.select({ isAdmin: users.isAdmin, disabledAt: users.disabledAt }).from(users).where(eq(users.id, id))
  return self?.isAdmin === true && self.disabledAt === null && other === undefined
}
