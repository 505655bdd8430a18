import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { nextAttemptAt } from '../outbox/backoff'
import type { JobHandle } from '../jobs/jobs'
import { fairOutboxJob } from '../outbox/fair-job'
import { type FairCandidate, fairShare as fairShareOf } from '../outbox/fair-share'
import { type AttemptResult, type OutgoingDelivery, sendDelivery } from './send-delivery'
import type { Resolve } from '../outbound/target-safety'

export type DispatcherOptions = {
  /** Deliveries in flight at once. */
  concurrency?: number
  /** Deliveries of one webhook in flight at once (of this process). */
  perWebhook?: number
  /** The time limit of one attempt, the answer included. */
  timeoutMs?: number
  /** The time limit of an attempt's connection. */
  connectTimeoutMs?: number
  /** How often the outbox is read besides the nudges (rows of other processes, retries coming due). */
  pollMs?: number
  resolve?: Resolve
}

export type Dispatcher = JobHandle

type Claimed = OutgoingDelivery & { createdAt: number; attempts: number }

/** Due deliveries looked at per claim: the oldest few of each webhook, at most this many in all. */
const CANDIDATES = 500

/**
 * Sends the outbox: claims due pending deliveries (at most `concurrency` in flight), sends each once and
 * writes the result. A claim moves `next_attempt_at` past the attempt's time limit and counts the attempt
 * before anything is sent, so a process killed mid-delivery leaves a row that comes due again by itself:
 * at least once, never lost. It runs beside the HTTP server, never inside a request.
 *
 * The slots are shared fairly (core/outbox/fair-job.ts): at most `perWebhook` deliveries of one webhook are in
 * flight (1: a receiver gets its events one at a time, in order, unless one is retried), and free slots go round
 * the owners with due deliveries (then round each owner's webhooks), oldest first within each. One owner's slow
 * receiver, or a flood of their test events, holds at most `perWebhook` slots per webhook and never makes another
 * owner's delivery wait its turn behind theirs.
 */
export function startWebhookDispatcher(ctx: AppContext, options: DispatcherOptions = {}): Dispatcher {
  return ctx.jobs.start(webhookJob(ctx, options))
}

/** The webhooks' outbox, sent fairly (core/outbox/fair-job.ts) by the job runner. */
export function webhookJob(ctx: AppContext, options: DispatcherOptions = {}) {
  const timeoutMs = options.timeoutMs ?? ctx.config.webhookTimeout * 1000
  const connectTimeoutMs = options.connectTimeoutMs ?? Math.min(3_000, timeoutMs)
  const lease = timeoutMs + connectTimeoutMs + 5_000 // the attempt's limits and time to write its result
  return fairOutboxJob<Claimed>({
    name: 'webhooks',
    concurrency: options.concurrency ?? ctx.config.webhookConcurrency,
    perTarget: options.perWebhook ?? 1,
    pollMs: options.pollMs ?? 2_000,
    candidates: (perWebhook) => dueCandidates(ctx, perWebhook),
    claim: (ids) => claim(ctx, ids, lease),
    async send(delivery, shutdown) {
      const result = await sendDelivery(delivery, {
        allowPrivate: ctx.config.webhookAllowPrivate,
        timeoutMs,
        connectTimeoutMs,
        now: ctx.now,
        shutdown,
        resolve: options.resolve,
      })
      if (result.detail) ctx.log.info(`webhook delivery ${delivery.id}: ${result.detail}`)
      await recordAttempt(ctx, delivery, result)
    },
    sendFailed: (error, delivery) => ctx.log.error(`webhook delivery ${delivery.id}: its result could not be written`, error),
    passFailed: (error) => ctx.log.error('webhook dispatcher: reading the outbox failed; trying again soon', error),
  })
}

/**
 * The due deliveries that may be sent next: the oldest `perWebhook` of each webhook (a window over the due
 * rows, so one webhook's backlog does not hide the others'), the oldest webhooks' first. A read: a write when
 * nothing is due would still count as one for this process's versioned caches (token, link and file lookups),
 * and empty them at every poll.
 */
async function dueCandidates(ctx: AppContext, perWebhook: number): Promise<FairCandidate[]> {
  const { webhookDeliveries, webhooks } = ctx.db.tables
  const now = ctx.now()
  return ctx.db.orm.all<FairCandidate>(sql`
    SELECT id, webhook_id AS "targetId", owner_id AS "ownerId" FROM (
      SELECT d.id, d.webhook_id, w.owner_id, d.next_attempt_at, d.seq,
        row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.next_attempt_at, d.seq) AS place
      FROM ${webhookDeliveries} d JOIN ${webhooks} w ON w.id = d.webhook_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}
    ) due
    WHERE place <= ${perWebhook}
    ORDER BY place, next_attempt_at, seq
    LIMIT ${CANDIDATES}`)
}

/** The shared rule of fair-share.ts in the webhooks' words (a webhook is the target). */
export const fairShare = (
  candidates: { id: string; webhookId: string; ownerId: string }[],
  free: number,
  perWebhook: number,
  busy: ReadonlyMap<string, number>,
): string[] =>
  fairShareOf(
    candidates.map(({ id, webhookId, ownerId }) => ({ id, targetId: webhookId, ownerId })),
    free,
    perWebhook,
    busy,
  )

/**
 * Claims the chosen deliveries, then reads where each goes. The claim is one statement that re-checks each
 * row, so two dispatchers never take the same delivery.
 */
async function claim(ctx: AppContext, ids: string[], lease: number): Promise<Claimed[]> {
  const { webhookDeliveries, webhooks } = ctx.db.tables
  const now = ctx.now()
  const claimed = await ctx.db.orm.all<{ id: string }>(sql`
    UPDATE ${webhookDeliveries} SET next_attempt_at = ${now + lease}, attempts = attempts + 1
    WHERE ${inArray(webhookDeliveries.id, ids)} AND status = 'pending' AND next_attempt_at <= ${now}
    RETURNING id`)
  if (claimed.length === 0) return []
  return ctx.db.orm
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
  const { webhookDeliveries } = ctx.db.tables
  const now = ctx.now()
  const mine = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending'))
  const outcome = { lastStatus: result.status, lastError: result.error }
  if (result.delivered) {
    ctx.metrics.outboxAttempt('webhooks', 'delivered')
    await ctx.db.orm
      .update(webhookDeliveries)
      .set({ ...outcome, status: 'delivered', deliveredAt: now })
      .where(mine)
    return
  }
  const next = nextAttemptAt({ createdAt: delivery.createdAt, attempts: delivery.attempts, now })
  ctx.metrics.outboxAttempt('webhooks', next === null ? 'failed' : 'retry')
  await ctx.db.orm
    .update(webhookDeliveries)
    .set(next === null ? { ...outcome, status: 'failed' } : { ...outcome, nextAttemptAt: next })
    .where(mine)
  if (next === null) ctx.log.info(`webhook delivery ${delivery.id} failed after ${delivery.attempts} attempts: ${result.error}`)
}
