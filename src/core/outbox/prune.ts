import { and, inArray, lt } from 'drizzle-orm'
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

/** Prunes now and then every hour until stopped (`pdfshare serve`); a failure is logged and tried again next time. */
export function startOutboxPruning(ctx: AppContext): { stop: () => void } {
  const run = () =>
    pruneFinishedOutbox(ctx).catch((error: unknown) => {
      ctx.log.error('could not delete old webhook deliveries and mails', error)
    })
  void run()
  const timer = setInterval(run, PRUNE_INTERVAL_MS)
  return { stop: () => clearInterval(timer) }
}
