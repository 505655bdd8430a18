import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { onOutboxWritten } from '../../../core/webhooks/wake'
import { webhookDeliveries, webhooks } from '../../../db/tables'
import { nextAttemptAt } from './backoff'
import { type AttemptResult, type OutgoingDelivery, sendDelivery } from './send-delivery'
import type { Resolve } from './target-safety'

export type DispatcherOptions = {
  /** Deliveries in flight at once. */
  concurrency?: number
  /** The time limit of one attempt, the answer included. */
  timeoutMs?: number
  /** How often the outbox is read besides the nudges (rows of other processes, retries coming due). */
  pollMs?: number
  resolve?: Resolve
}

export type Dispatcher = {
  /** Look for due deliveries now. */
  nudge(): void
  /** Resolves once nothing is being claimed or sent (for tests). */
  idle(): Promise<void>
  /** Stops polling, aborts the attempts in flight and waits until their results are written. */
  stop(): Promise<void>
}

type Claimed = OutgoingDelivery & { createdAt: number; attempts: number }

/**
 * Sends the outbox: claims due pending deliveries (at most `concurrency` in flight), sends each once and
 * writes the result. A claim moves `next_attempt_at` past the attempt's time limit and counts the attempt
 * before anything is sent, so a process killed mid-delivery leaves a row that comes due again by itself:
 * at least once, never lost. It runs beside the HTTP server, never inside a request: a slow receiver delays
 * only other deliveries.
 */
export function startWebhookDispatcher(ctx: AppContext, options: DispatcherOptions = {}): Dispatcher {
  const concurrency = options.concurrency ?? 4
  const timeoutMs = options.timeoutMs ?? 10_000
  const lease = timeoutMs + 5_000 // the attempt's limit and time to write its result
  const shutdown = new AbortController()
  const inFlight = new Set<Promise<void>>()
  let pumping: Promise<void> | undefined
  let again = false

  const deliver = async (delivery: Claimed) => {
    const result = await sendDelivery(delivery, {
      allowPrivate: ctx.config.webhookAllowPrivate,
      timeoutMs,
      now: ctx.now,
      shutdown: shutdown.signal,
      resolve: options.resolve,
    })
    await recordAttempt(ctx, delivery, result)
  }

  const claimAndStart = async () => {
    const free = concurrency - inFlight.size
    if (free <= 0) return
    const due = await claimDue(ctx, free, lease)
    for (const delivery of due) {
      const running: Promise<void> = deliver(delivery)
        .catch((error) => ctx.log.error(`webhook delivery ${delivery.id}: its result could not be written`, error))
        .finally(() => {
          inFlight.delete(running)
          pump()
        })
      inFlight.add(running)
    }
    if (due.length === free) again = true // more may be due
  }

  const pump = () => {
    if (shutdown.signal.aborted) return
    if (pumping) {
      again = true
      return
    }
    pumping = (async () => {
      try {
        do {
          again = false
          await claimAndStart()
        } while (again && !shutdown.signal.aborted)
      } catch (error) {
        ctx.log.error('webhook dispatcher: reading the outbox failed; trying again at the next poll', error)
      } finally {
        pumping = undefined
      }
    })()
  }

  const stopWaking = onOutboxWritten(ctx, pump)
  const poll = setInterval(pump, options.pollMs ?? 2_000)
  poll.unref()
  pump()

  return {
    nudge: pump,
    async idle() {
      while (pumping || inFlight.size > 0) await Promise.all([pumping, ...inFlight])
    },
    async stop() {
      clearInterval(poll)
      stopWaking()
      shutdown.abort()
      await pumping
      await Promise.all(inFlight)
    },
  }
}

/**
 * Claims up to `limit` due deliveries, then reads where each goes. The poll looks first with a read: a write
 * when nothing is due would still count as one for this process's versioned caches (token, link and file
 * lookups), and empty them at every poll. The claim itself is one statement that re-checks each row, so two
 * dispatchers never take the same delivery.
 */
async function claimDue(ctx: AppContext, limit: number, lease: number): Promise<Claimed[]> {
  const now = ctx.now()
  const isDue = sql`status = 'pending' AND next_attempt_at <= ${now}`
  const due = await ctx.db.all<{ id: string }>(
    sql`SELECT id FROM ${webhookDeliveries} WHERE ${isDue} ORDER BY next_attempt_at, seq LIMIT ${limit}`,
  )
  if (due.length === 0) return []
  const claimed = await ctx.db.all<{ id: string }>(sql`
    UPDATE ${webhookDeliveries} SET next_attempt_at = ${now + lease}, attempts = attempts + 1
    WHERE ${inArray(
      webhookDeliveries.id,
      due.map((row) => row.id),
    )} AND ${isDue}
    RETURNING id`)
  if (claimed.length === 0) return []
  return ctx.db
    .select({
      id: webhookDeliveries.id,
      payload: webhookDeliveries.payload,
      createdAt: webhookDeliveries.createdAt,
      attempts: webhookDeliveries.attempts,
      url: webhooks.url,
      secret: webhooks.secret,
    })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(
      inArray(
        webhookDeliveries.id,
        claimed.map((row) => row.id),
      ),
    )
}

/** Delivered; or due again after the backoff; or failed once the retry window is over. */
async function recordAttempt(ctx: AppContext, delivery: Claimed, result: AttemptResult): Promise<void> {
  const now = ctx.now()
  const mine = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending'))
  const outcome = { lastStatus: result.status, lastError: result.error }
  if (result.delivered) {
    await ctx.db
      .update(webhookDeliveries)
      .set({ ...outcome, status: 'delivered', deliveredAt: now })
      .where(mine)
    return
  }
  const next = nextAttemptAt({ createdAt: delivery.createdAt, attempts: delivery.attempts, now })
  await ctx.db
    .update(webhookDeliveries)
    .set(next === null ? { ...outcome, status: 'failed' } : { ...outcome, nextAttemptAt: next })
    .where(mine)
  if (next === null) ctx.log.info(`webhook delivery ${delivery.id} failed after ${delivery.attempts} attempts: ${result.error}`)
}
