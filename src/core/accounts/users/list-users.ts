import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { fileCountOf, storedBytesOf, type Usage } from '../../files/usage'
import type { UserRow } from '../../../db/tables'

/** Every user by name, with what they use (bytes: current PDFs and kept versions, as the quota counts them). */
export async function listUsers(ctx: AppContext): Promise<(UserRow & { usage: Usage; passkeys: number })[]> {
  const { users, passkeys } = ctx.db.tables
  const owner = sql`${users.id}`
  const rows = await ctx.db.orm
    .select({
      user: users,
      files: sql<number>`${fileCountOf(ctx.db.tables, owner)}`,
      bytes: sql<number>`${storedBytesOf(ctx.db.tables, owner)}`,
      passkeys: sql<number>`(SELECT COUNT(*) FROM ${passkeys} WHERE ${passkeys.userId} = ${owner})`,
    })
    .from(users)
    .orderBy(users.name)
  return rows.map((row) => ({
    ...row.user,
    usage: { files: Number(row.files), bytes: Number(row.bytes ?? 0) },
    passkeys: Number(row.passkeys),
  }))
}
