import { eq, sql, type SQL } from 'drizzle-orm'
import type { Tables } from '../../db/database'
import type { AppContext } from '../context'

/** Files a user owns, and the bytes they take: their current PDFs and the previous versions kept of them. */
export type Usage = { files: number; bytes: number }

/**
 * SQL for the bytes a user stores: every current PDF plus every kept previous version. The one definition the
 * account, the user list and the quota condition (core/files/quota.ts) all read, so they always agree.
 */
export function storedBytesOf({ files, fileVersions }: Tables, ownerId: string | SQL): SQL {
  return sql`((SELECT coalesce(sum(${files.size}), 0) FROM ${files} WHERE ${files.ownerId} = ${ownerId})
    + (SELECT coalesce(sum(${fileVersions.size}), 0) FROM ${fileVersions}
       WHERE ${fileVersions.fileId} IN (SELECT ${files.id} FROM ${files} WHERE ${files.ownerId} = ${ownerId})))`
}

/** SQL for the number of files a user owns (versions are not files). */
export function fileCountOf({ files }: Tables, ownerId: string | SQL): SQL {
  return sql`(SELECT count(*) FROM ${files} WHERE ${files.ownerId} = ${ownerId})`
}

/** How many files a user owns and how many bytes they take, versions included: what the quota counts and the account shows. */
export async function usageOf(ctx: AppContext, userId: string): Promise<Usage> {
  const [row] = await ctx.db.orm.all<{ files: number; bytes: number }>(
    sql`SELECT ${fileCountOf(ctx.db.tables, userId)} AS files, ${storedBytesOf(ctx.db.tables, userId)} AS bytes`,
  )
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) }
}

/** The bytes of a user's previous versions alone: a storage refusal names them, since deleting versions frees room. */
export async function versionBytesOf(ctx: AppContext, userId: string): Promise<number> {
  const { files, fileVersions } = ctx.db.tables
  const [row] = await ctx.db.orm
    .select({ bytes: sql<number>`coalesce(sum(${fileVersions.size}), 0)` })
    .from(fileVersions)
    .innerJoin(files, eq(files.id, fileVersions.fileId))
    .where(eq(files.ownerId, userId))
  return Number(row?.bytes ?? 0)
}
