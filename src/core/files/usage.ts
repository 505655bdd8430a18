import { count, eq, sum } from 'drizzle-orm'
import { files } from '../../db/schema'
import type { AppContext } from '../context'

export type Usage = { files: number; bytes: number }

/** How many files a user owns and how many bytes they take: what the quota counts and the account shows. */
export async function usageOf(ctx: AppContext, userId: string): Promise<Usage> {
  const [row] = await ctx.db
    .select({ files: count(), bytes: sum(files.size) })
    .from(files)
    .where(eq(files.ownerId, userId))
  return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) }
}
