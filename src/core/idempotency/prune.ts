import { sql } from 'drizzle-orm'
import type { Job } from '../jobs/jobs'
import type { AppContext } from '../context'

/** Keys deleted per statement: a short write each, so requests never wait long behind the pruning. */
const PRUNE_BATCH = 1000
const PRUNE_INTERVAL_MS = 60 * 60 * 1000

/**
 * Deletes the keys older than PDFSHARE_IDEMPOTENCY_TTL, in bounded batches: kept answers, and claims whose
 * request is gone (a claim still renewed by a running request stays, whatever its age). Returns how many.
 */
export async function pruneIdempotencyKeys(ctx: AppContext): Promise<number> {
  const { idempotencyKeys } = ctx.db.tables
  const now = ctx.now()
  let deleted = 0
  for (;;) {
    const result = await ctx.db.orm.run(
      sql`DELETE FROM ${idempotencyKeys} WHERE (user_id, key) IN
        (SELECT user_id, key FROM ${idempotencyKeys}
         WHERE expires_at < ${now} AND (done = ${true} OR lease_until < ${now}) LIMIT ${PRUNE_BATCH})`,
    )
    deleted += result.rowsAffected
    if (result.rowsAffected < PRUNE_BATCH) return deleted
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** Idempotency keys kept PDFSHARE_IDEMPOTENCY_TTL (a job of `pdfshare serve`: at start, then every hour; a failure is logged and tried again). */
export function idempotencyPruningJob(ctx: AppContext): Job {
  return {
    name: 'prune idempotency keys',
    everyMs: PRUNE_INTERVAL_MS,
    async pass() {
      await pruneIdempotencyKeys(ctx)
    },
    failed: (error) => ctx.log.error('could not delete expired idempotency keys', error),
  }
}
