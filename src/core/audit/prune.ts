import { sql } from 'drizzle-orm'
import type { Job } from '../jobs/jobs'
import type { AppContext } from '../context'

const DAY_MS = 24 * 60 * 60 * 1000
/** Entries deleted per statement: a short write each, so requests never wait long behind the pruning. */
const PRUNE_BATCH = 1000
const PRUNE_INTERVAL_MS = 60 * 60 * 1000

/** Deletes the audit-log entries older than PDFSHARE_AUDIT_RETENTION days, in bounded batches. Returns how many. */
export async function pruneAuditLog(ctx: AppContext): Promise<number> {
  const { auditEvents } = ctx.db.tables
  const before = ctx.now() - ctx.config.auditRetention * DAY_MS
  let deleted = 0
  for (;;) {
    const result = await ctx.db.orm.run(
      sql`DELETE FROM ${auditEvents} WHERE ${auditEvents.seq} IN
        (SELECT ${auditEvents.seq} FROM ${auditEvents} WHERE ${auditEvents.at} < ${before} LIMIT ${PRUNE_BATCH})`,
    )
    deleted += result.rowsAffected
    if (result.rowsAffected < PRUNE_BATCH) return deleted
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** The audit log kept to PDFSHARE_AUDIT_RETENTION days (a job of `pdfshare serve`: at start, then every hour; a failure is logged and tried again). */
export function auditPruningJob(ctx: AppContext): Job {
  return {
    name: 'prune audit log',
    everyMs: PRUNE_INTERVAL_MS,
    async pass() {
      await pruneAuditLog(ctx)
    },
    failed: (error) => ctx.log.error('could not delete old audit-log entries', error),
  }
}
