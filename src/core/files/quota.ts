import { eq, sql, type SQL } from 'drizzle-orm'
import { fileCountExceeded, quotaExceeded, storageExceeded, unauthorized } from '../../errors'
import type { Tables } from '../../db/database'
import type { AppContext } from '../context'
import { fileCountOf, storedBytesOf, usageOf, versionBytesOf } from './usage'

/**
 * An owner's plan limits (files and bytes; a user's: `pdfshare user quota`; a team's: its row), the one place they are checked. They are
 * checked twice: early, from the declared Content-Length, so a doomed upload is refused before its body is
 * read (`assertQuotaAllows`, called by core/uploads/receive-upload.ts); and inside the very statement that
 * commits the file (`fitsQuota`), so two concurrent uploads can never both slip under the limit. Both take
 * the same growth, made by `quotaGrowth`, and refusals are explained with the same words.
 */

/** What a write adds to its owner's usage. */
export type QuotaGrowth = { files: number; bytes: number }

/**
 * Storing a PDF of `bytes`: a new file, or, in place of a file's current PDF (a PUT), no new file and the
 * new bytes less what the replacement `frees`. The replaced PDF stays, as a previous version; what is freed is
 * the versions pruned beyond PDFSHARE_MAX_VERSIONS (core/files/versions.ts `replacementPlan`), which with
 * 0 kept versions is the replaced PDF itself. The growth may be negative: such a replacement frees room.
 */
export function quotaGrowth(bytes: number, replacing?: { frees: number }): QuotaGrowth {
  return replacing ? { files: 0, bytes: bytes - replacing.frees } : { files: 1, bytes }
}

type Limits = { maxBytes: number | null; maxFiles: number | null }

/** An owner's limits: a user's, or a team's (docs/teams.md); undefined when the owner is gone. */
async function limitsOf(ctx: AppContext, ownerId: string): Promise<Limits | undefined> {
  const { teams, users } = ctx.db.tables
  const limits = (table: typeof users | typeof teams) =>
    ctx.db.orm.select({ maxBytes: table.maxBytes, maxFiles: table.maxFiles }).from(table).where(eq(table.id, ownerId))
  const [[user], [team]] = await ctx.db.orm.batch([limits(users), limits(teams)])
  return user ?? team
}

/** The early check: refuses when the growth would take the owner past a limit. An owner that is gone is unauthorized. */
export async function assertQuotaAllows(ctx: AppContext, userId: string, growth: QuotaGrowth): Promise<void> {
  const user = await limitsOf(ctx, userId)
  if (!user) throw unauthorized()
  if (user.maxFiles === null && user.maxBytes === null) return
  const usage = await usageOf(ctx, userId)
  if (user.maxFiles !== null && growth.files > 0 && usage.files + growth.files > user.maxFiles) {
    throw fileCountExceeded(usage.files, user.maxFiles)
  }
  if (user.maxBytes !== null && growth.bytes > 0 && usage.bytes + growth.bytes > user.maxBytes) {
    throw storageExceeded(usage.bytes, user.maxBytes, await versionBytesOf(ctx, userId))
  }
}

/** After a write guarded by `fitsQuota` changed nothing: the precise reason, as the client should read it. */
export async function quotaRefusal(ctx: AppContext, userId: string, growth: QuotaGrowth): Promise<Error> {
  const user = await limitsOf(ctx, userId)
  if (!user) return unauthorized()
  const usage = await usageOf(ctx, userId)
  if (user.maxFiles !== null && usage.files + growth.files > user.maxFiles) return fileCountExceeded(usage.files, user.maxFiles)
  if (user.maxBytes !== null) return storageExceeded(usage.bytes, user.maxBytes, await versionBytesOf(ctx, userId))
  return quotaExceeded('Quota exceeded')
}

/**
 * SQL condition for the statement that commits a write: the owner exists and, after the growth, stays within
 * both limits (bytes: current PDFs and kept versions, as `usageOf` counts them). A write that does not grow usage is always allowed, even for a user whose limits were lowered
 * below it.
 */
export function fitsQuota(tables: Tables, ownerId: string, growth: QuotaGrowth): SQL {
  // The owner is a user or a team: each has its limits in its own row.
  return sql`(${fitsLimitsOf(tables, tables.users, ownerId, growth)} OR ${fitsLimitsOf(tables, tables.teams, ownerId, growth)})`
}

function fitsLimitsOf(tables: Tables, owner: Tables['users'] | Tables['teams'], ownerId: string, growth: QuotaGrowth): SQL {
  // TRUE, not 1: PostgreSQL's AND takes booleans only. The growth is cast so that PostgreSQL, which infers a
  // parameter's type from its context, reads it as a bigint rather than an integer (a PDF may exceed 2 GiB).
  const countFits =
    growth.files > 0
      ? sql`(${owner.maxFiles} IS NULL OR ${fileCountOf(tables, ownerId)} + ${growth.files} <= ${owner.maxFiles})`
      : sql`TRUE`
  const bytes = sql`CAST(${growth.bytes} AS BIGINT)`
  const bytesFit = sql`(${owner.maxBytes} IS NULL OR ${bytes} <= 0
    OR ${storedBytesOf(tables, ownerId)} + ${bytes} <= ${owner.maxBytes})`
  return sql`EXISTS (SELECT 1 FROM ${owner} WHERE ${owner.id} = ${ownerId} AND ${countFits} AND ${bytesFit})`
}
