import { eq } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import type { UserRow } from '../../../db/tables'
import { unauthorized, userNotFound } from '../../../errors'

export async function findUserByName(ctx: AppContext, name: string): Promise<UserRow> {
  const { users } = ctx.db.tables
  const [row] = await ctx.db.orm.select().from(users).where(eq(users.name, name))
  if (!row) throw userNotFound(name)
  return row
}

/** The user behind a verified token; gone since the token was issued means the caller is not signed in. */
export async function findUserById(ctx: AppContext, id: string): Promise<UserRow> {
  const { users } = ctx.db.tables
  const [row] = await ctx.db.orm.select().from(users).where(eq(users.id, id))
  if (!row) throw unauthorized()
  return row
}
