import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { onOutboxWritten } from '../../../core/webhooks/wake'
import { nextAttemptAt } from '../../../core/outbox/backoff'
import { type AttemptResult, type OutgoingDelivery, sendDelivery } from './send-delivery'
import type { Resolve } from '../../../core/outbound/target-safety'

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

export type Dispatcher = {
  /** Look for due deliveries now. */
  nudge(): void
  /** Resolves once nothing is being claimed or sent (for tests). */
  idle(): Promise<void>
  /** Stops polling, aborts the attempts in flight and waits until their results are written. */
  stop(): Promise<void>
}

type Claimed = OutgoingDelivery & { createdAt: number; attempts: number; webhookId: string }

/** Due deliveries looked at per claim: the oldest few of each webhook, at most this many in all. */
const CANDIDATES = 500

/**
 * Sends the outbox: claims due pending deliveries (at most `concurrency` in flight), sends each once and
 * writes the result. A claim moves `next_attempt_at` past the attempt's time limit and counts the attempt
 * before anything is sent, so a process killed mid-delivery leaves a row that comes due again by itself:
 * at least once, never lost. It runs beside the HTTP server, never inside a request.
 *
 * The slots are shared fairly: at most `perWebhook` deliveries of one webhook are in flight (1: a receiver
 * gets its events one at a time, in order, unless one is retried), and free slots go round the owners with
 * due deliveries (then round each owner's webhooks), oldest first within each. One owner's slow receiver, or
 * a flood of their test events, holds at most `perWebhook` slots per webhook and never makes another owner's
 * delivery wait its turn behind theirs.
 */
export function startWebhookDispatcher(ctx: AppContext, options: DispatcherOptions = {}): Dispatcher {
  const concurrency = options.concurrency ?? ctx.config.webhookConcurrency
  const perWebhook = options.perWebhook ?? 1
  const timeoutMs = options.timeoutMs ?? ctx.config.webhookTimeout * 1000
  const connectTimeoutMs = options.connectTimeoutMs ?? Math.min(3_000, timeoutMs)
  const lease = timeoutMs + connectTimeoutMs + 5_000 // the attempt's limits and time to write its result
  const shutdown = new AbortController()
  const inFlight = new Set<Promise<void>>()
  /** Deliveries in flight per webhook. */
  const busy = new Map<string, number>()
  let pumping: Promise<void> | undefined
  let again = false

  const deliver = async (delivery: Claimed) => {
    const result = await sendDelivery(delivery, {
      allowPrivate: ctx.config.webhookAllowPrivate,
      timeoutMs,
      connectTimeoutMs,
      now: ctx.now,
      shutdown: shutdown.signal,
      resolve: options.resolve,
    })
    if (result.detail) ctx.log.info(`webhook delivery ${delivery.id}: ${result.detail}`)
    await recordAttempt(ctx, delivery, result)
  }

  const claimAndStart = async () => {
    const free = concurrency - inFlight.size
    if (free <= 0) return
    const chosen = fairShare(await dueCandidates(ctx, perWebhook), free, perWebhook, busy)
    if (chosen.length === 0) return
    const due = await claim(ctx, chosen, lease)
    for (const delivery of due) {
      busy.set(delivery.webhookId, (busy.get(delivery.webhookId) ?? 0) + 1)
      const running: Promise<void> = deliver(delivery)
        .catch((error) => ctx.log.error(`webhook delivery ${delivery.id}: its result could not be written`, error))
        .finally(() => {
          const left = (busy.get(delivery.webhookId) ?? 1) - 1
          if (left > 0) busy.set(delivery.webhookId, left)
          else busy.delete(delivery.webhookId)
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

type Candidate = { id: string; webhookId: string; ownerId: string }

/**
 * The due deliveries that may be sent next: the oldest `perWebhook` of each webhook (a window over the due
 * rows, so one webhook's backlog does not hide the others'), the oldest webhooks' first. A read: a write when
 * nothing is due would still count as one for this process's versioned caches (token, link and file lookups),
 * and empty them at every poll.
 */
async function dueCandidates(ctx: AppContext, perWebhook: number): Promise<Candidate[]> {
  const { webhookDeliveries, webhooks } = ctx.db.tables
  const now = ctx.now()
  return ctx.db.orm.all<Candidate>(sql`
    SELECT id, webhook_id AS "webhookId", owner_id AS "ownerId" FROM (
      SELECT d.id, d.webhook_id, w.owner_id, d.next_attempt_at, d.seq,
        row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.next_attempt_at, d.seq) AS place
      FROM ${webhookDeliveries} d JOIN ${webhooks} w ON w.id = d.webhook_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}
    ) due
    WHERE place <= ${perWebhook}
    ORDER BY place, next_attempt_at, seq
    LIMIT ${CANDIDATES}`)
}

/**
 * Up to `free` candidates, round the owners in the order of their oldest due delivery, each turn an owner's
 * next webhook in turn, skipping webhooks with `perWebhook` deliveries in flight already.
 */
export function fairShare(candidates: Candidate[], free: number, perWebhook: number, busy: ReadonlyMap<string, number>): string[] {
  const owners = new Map<string, Map<string, string[]>>()
  for (const candidate of candidates) {
    const hooks = owners.get(candidate.ownerId) ?? new Map<string, string[]>()
    owners.set(candidate.ownerId, hooks)
    hooks.set(candidate.webhookId, [...(hooks.get(candidate.webhookId) ?? []), candidate.id])
  }
  const taken = new Map<string, number>()
  const chosen: string[] = []
  const queues = [...owners.values()].map((hooks) => [...hooks.entries()])
  for (let progress = true; chosen.length < free && progress; ) {
    progress = false
    for (const queue of queues) {
      if (chosen.length >= free) break
      // This owner's next webhook that may take one more.
      for (let turn = 0; turn < queue.length; turn++) {
        const [webhookId, ids] = queue.shift()!
        queue.push([webhookId, ids])
        const inFlight = (busy.get(webhookId) ?? 0) + (taken.get(webhookId) ?? 0)
        if (ids.length === 0 || inFlight >= perWebhook) continue
        chosen.push(ids.shift()!)
        taken.set(webhookId, (taken.get(webhookId) ?? 0) + 1)
        progress = true
        break
      }
    }
  }
  return chosen
}

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
      webhookId: webhookDeliveries.webhookId,
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
