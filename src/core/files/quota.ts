import { eq, sql, type SQL } from 'drizzle-orm'
import { files, users } from '../../db/schema'
import { fileCountExceeded, quotaExceeded, storageExceeded, unauthorized } from '../../errors'
import type { AppContext } from '../context'
import { usageOf } from './usage'

/**
 * Plan limits (contract §7). They are checked twice: early, from the declared Content-Length, so a doomed
 * upload is refused before its body is read; and inside the very statement that commits the file
 * (`fitsQuota`), so two concurrent uploads can never both slip under the limit.
 */
export async function assertUploadMayStart(ctx: AppContext, userId: string, growth: { files: number; bytes: number }): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId))
  if (!user) throw unauthorized()
  if (user.maxFiles === null && user.maxBytes === null) return
  const usage = await usageOf(ctx, userId)
  if (user.maxFiles !== null && growth.files > 0 && usage.files + growth.files > user.maxFiles) {
    throw fileCountExceeded(usage.files, user.maxFiles)
  }
  if (user.maxBytes !== null && growth.bytes > 0 && usage.bytes + growth.bytes > user.maxBytes) {
    throw storageExceeded(usage.bytes, user.maxBytes)
  }
}

/** After a guarded write changed nothing: the precise reason, as the client should read it. */
export async function explainQuotaRefusal(ctx: AppContext, userId: string, addedFiles: number, addedBytes: number): Promise<Error> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId))
  if (!user) return unauthorized()
  const usage = await usageOf(ctx, userId)
  if (user.maxFiles !== null && usage.files + addedFiles > user.maxFiles) return fileCountExceeded(usage.files, user.maxFiles)
  if (user.maxBytes !== null) return storageExceeded(usage.bytes, user.maxBytes)
  return quotaExceeded('Quota exceeded')
}

/**
 * SQL condition: the owner exists and, after adding `addedFiles` files and `addedBytes` bytes (an SQL
 * expression for a replacement: new size minus the row's current size), stays within both limits.
 * A write that does not grow usage is always allowed, even for a user whose limits were lowered below it.
 */
export function fitsQuota(ownerId: string, addedFiles: number, addedBytes: number | SQL): SQL {
  const countFits = addedFiles > 0
    ? sql`(${users.maxFiles} IS NULL OR (SELECT count(*) FROM ${files} WHERE ${files.ownerId} = ${ownerId}) + ${addedFiles} <= ${users.maxFiles})`
    : sql`1`
  const bytesFit = sql`(${users.maxBytes} IS NULL OR (${addedBytes}) <= 0
    OR (SELECT coalesce(sum(${files.size}), 0) FROM ${files} WHERE ${files.ownerId} = ${ownerId}) + (${addedBytes}) <= ${users.maxBytes})`
  return sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${ownerId} AND ${countFits} AND ${bytesFit})`
}
