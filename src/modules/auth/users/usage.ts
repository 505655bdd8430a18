import { count, eq, sum } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { files, type UserRow } from '../../../db/schema'

export type Usage = { files: number; bytes: number }
export type Limits = { maxStorageBytes: number | null; maxFiles: number | null }

/** How many files a user owns and how many bytes they take. */
export async function usageOf(ctx: AppContext, userId: string): Promise<Usage> {
  const [row] = await ctx.db
    .select({ files: count(), bytes: sum(files.size) })
    .from(files)
    .where(eq(files.ownerId, userId))
  return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) }
}

export function limitsOf(user: Pick<UserRow, 'maxBytes' | 'maxFiles'>): Limits {
  return { maxStorageBytes: user.maxBytes, maxFiles: user.maxFiles }
}
