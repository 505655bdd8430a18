import { count, eq, sum } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import type { Usage } from '../../../core/files/usage'
import { files, users, type UserRow } from '../../../db/schema'

/** Every user by name, with what they use. */
export async function listUsers(ctx: AppContext): Promise<(UserRow & { usage: Usage })[]> {
  const rows = await ctx.db
    .select({ user: users, files: count(files.seq), bytes: sum(files.size) })
    .from(users)
    .leftJoin(files, eq(files.ownerId, users.id))
    .groupBy(users.id)
    .orderBy(users.name)
  return rows.map((row) => ({ ...row.user, usage: { files: row.files, bytes: Number(row.bytes ?? 0) } }))
}
