import type { AppContext } from '../../../core/context'
import type { UserRow } from '../../../db/tables'
import { badRequest, userAlreadyExists } from '../../../errors'
import { randomId } from '../../../lib/ids'

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export async function addUser(ctx: AppContext, input: { name: string }): Promise<UserRow> {
  const { users } = ctx.db.tables
  if (!USER_NAME.test(input.name)) {
    throw badRequest('A user name is 1–64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit')
  }
  const row: UserRow = { id: randomId(), name: input.name, createdAt: ctx.now(), maxBytes: null, maxFiles: null, passwordHash: null }
  // ON CONFLICT keeps "already exists" a normal answer instead of a constraint error.
  const inserted = await ctx.db.orm.insert(users).values(row).onConflictDoNothing().returning()
  if (inserted.length === 0) throw userAlreadyExists(input.name)
  return row
}
