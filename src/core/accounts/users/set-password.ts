import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { badRequest } from '../../../errors'
import { hashPassword } from '../../passwords/argon2'
import { passwordProblem } from '../password-rule'
import { findUserByName } from './find-user'

/** Sets or changes a user's password, which lets them sign in to the dashboard. */
export async function setPassword(ctx: AppContext, input: { name: string; password: string }): Promise<void> {
  const { users } = ctx.db.tables
  const problem = passwordProblem(input.password)
  if (problem) throw badRequest(problem)
  const user = await findUserByName(ctx, input.name)
  await ctx.db.orm
    .update(users)
    .set({ passwordHash: await hashPassword(input.password) })
    .where(eq(users.id, user.id))
}
