import { and, inArray, lt } from 'drizzle-orm'
import type { Job } from '../jobs/jobs'
import type { AppContext } from '../context'

const DAY_MS = 24 * 60 * 60 * 1000
/** How long the logs show a finished webhook delivery or mail: a month of answers to look back on. */
export const KEEP_FINISHED_MS = 30 * DAY_MS
const PRUNE_INTERVAL_MS = 60 * 60 * 1000

/**
 * Deletes the webhook deliveries and mails that finished (delivered or sent, or failed) more than
 * KEEP_FINISHED_MS after they were made; pending ones stay whatever their age. Answers how many went.
 */
export async function pruneFinishedOutbox(ctx: AppContext): Promise<number> {
  const { webhookDeliveries, mailOutbox } = ctx.db.tables
  const before = ctx.now() - KEEP_FINISHED_MS
  const [deliveries, mails] = await ctx.db.orm.batch([
    ctx.db.orm
      .delete(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.status, ['delivered', 'failed']), lt(webhookDeliveries.createdAt, before)))
      .returning({ id: webhookDeliveries.id }),
    ctx.db.orm
      .delete(mailOutbox)
      .where(and(inArray(mailOutbox.status, ['sent', 'failed']), lt(mailOutbox.createdAt, before)))
      .returning({ id: mailOutbox.id }),
  ])
  return deliveries.length + mails.length
}

/** Finished webhook deliveries and mails kept KEEP_FINISHED_MS (a job of `pdfshare serve`: at start, then every hour; a failure is logged and tried again). */
export function outboxPruningJob(ctx: AppContext): Job {
  return {
    name: 'prune outbox',
    everyMs: PRUNE_INTERVAL_MS,
    async pass() {
      await pruneFinishedOutbox(ctx)
    },
    failed: (error) => ctx.log.error('could not delete old webhook deliveries and mails', error),
  }
}
