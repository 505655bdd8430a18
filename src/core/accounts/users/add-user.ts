import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { UserRow } from '../../../db/tables'
import { badRequest, userAlreadyExists } from '../../../errors'
import { randomId } from '../../../lib/ids'

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** Adds a user without a password or limits. The first user of an install is an admin, as is one added with `admin`. */
export async function addUser(ctx: AppContext, input: { name: string; admin?: boolean }): Promise<UserRow> {
  const { owners, users } = ctx.db.tables
  if (!USER_NAME.test(input.name)) {
    throw badRequest('A user name is 1–64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit')
  }
  // "The first user" is decided inside the INSERT, so two first users added at once cannot both be it.
  const isAdmin = input.admin ? true : sql<boolean>`NOT EXISTS (SELECT 1 FROM ${users})`
  const row = { id: randomId(), name: input.name, createdAt: ctx.now(), maxBytes: null, maxFiles: null, passwordHash: null, isAdmin }
  // ON CONFLICT keeps "already exists" a normal answer instead of a constraint error. The user's owners row (what
  // their files, rooms… reference) is written in the same transaction, only when the user row was.
  const [[inserted]] = await ctx.db.orm.batch([
    ctx.db.orm.insert(users).values(row).onConflictDoNothing().returning(),
    ctx.db.orm.run(sql`INSERT INTO ${owners} (id, kind) SELECT ${users.id}, 'user' FROM ${users} WHERE ${users.id} = ${row.id}`),
  ])
  if (!inserted) throw userAlreadyExists(input.name)
  return inserted
}
