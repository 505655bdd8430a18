import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { unauthorized, userIdNotFound, userNotFound } from '../../../errors'

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

/** A user by id for an admin's request: an unknown id is a 404. */
export async function userWithId(ctx: AppContext, id: string): Promise<UserRow> {
  const { users } = ctx.db.tables
  const [row] = await ctx.db.orm.select().from(users).where(eq(users.id, id))
  if (!row) throw userIdNotFound()
  return row
}
