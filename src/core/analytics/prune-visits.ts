import { lt, sql } from 'drizzle-orm'
import type { Job } from '../jobs/jobs'
import type { AppContext } from '../context'
import { DAY_MS } from './day-range'

/** Visits deleted per statement: a short write each, so requests never wait long behind the pruning. */
const PRUNE_BATCH = 1000
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000

/**
 * Deletes the visits older than PDFSHARE_ANALYTICS_RETENTION days (their pages go with them), in bounded
 * batches. With retention 0 no visit is recorded, and any left from before are deleted. Returns how many.
 * Readers' codes that ran out go too (a new code for the same link and address replaces one anyway).
 */
export async function pruneVisits(ctx: AppContext): Promise<number> {
  const { files, visits, readerCodes } = ctx.db.tables
  const before = ctx.now() - ctx.config.analyticsRetention * DAY_MS
  await ctx.db.orm.delete(readerCodes).where(lt(readerCodes.expiresAt, ctx.now()))
  let deleted = 0
  // File by file, through the (file, time) index: visits have no index on time alone, which every counted
  // view would pay for (BENCHMARKS.md, Design measurements).
  for (const { id } of await ctx.db.orm.select({ id: files.id }).from(files)) {
    for (;;) {
      const result = await ctx.db.orm.run(
        sql`DELETE FROM ${visits} WHERE ${visits.seq} IN
          (SELECT ${visits.seq} FROM ${visits} WHERE ${visits.fileId} = ${id} AND ${visits.at} < ${before} LIMIT ${PRUNE_BATCH})`,
      )
      deleted += result.rowsAffected
      if (result.rowsAffected < PRUNE_BATCH) break
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return deleted
}

/** Visits kept PDFSHARE_ANALYTICS_RETENTION days (a job of `pdfshare serve`: at start, then every hour; a failure is logged and tried again). */
export function visitPruningJob(ctx: AppContext): Job {
  return {
    name: 'prune visits',
    everyMs: PRUNE_INTERVAL_MS,
    async pass() {
      await pruneVisits(ctx)
    },
    failed: (error) => ctx.log.error('could not delete old visits', error),
  }
}
