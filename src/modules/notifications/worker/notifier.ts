import { and, eq, inArray, lt, sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { type ChannelKind, isChannelKind } from '../../../core/notifications/channels'
import { htmlOf, senderOf } from '../../../core/mail/message'
import { type SmtpSender, smtpSender } from '../../../core/mail/transport'
import { nextAttemptAt } from '../../../core/outbox/backoff'
import { type AttemptResult, sendRequest } from '../../../core/outbound/send-request'
import type { Resolve } from '../../../core/outbound/target-safety'
import { onOutboxWritten } from '../../../core/webhooks/wake'
import type { NotificationDeliveryRow } from '../../../db/tables'
import { requestFor } from './formats'
import { routeEvents } from './route-events'

export type Notifier = {
  nudge(): void
  /** Resolves once nothing is being routed or sent (for tests). */
  idle(): Promise<void>
  stop(): Promise<void>
}

/** Deliveries sent at once. */
const CONCURRENCY = 4
const POLL_MS = 5_000
const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
/** Routed events are kept a while (the cap counts the last hour), deliveries as long as the log shows them. */
const KEEP_EVENTS_MS = 2 * DAY
export const KEEP_DELIVERIES_MS = 30 * DAY
/** How long a claimed delivery is held before another instance may try it: an attempt's limits and then some. */
const LEASE_MS = 60_000

type Claimed = NotificationDeliveryRow & { kind: ChannelKind; target: string }

/**
 * Tells owners of their readers, beside the server: routes new reader events and due digests to deliveries
 * (route-events.ts), then sends the deliveries, each to its channel — a mail through PDFSHARE_SMTP_URL, or a
 * request in the format of ntfy, Gotify, Slack, Discord or Matrix (formats.ts) by the rules of every request to
 * an owner's URL (no private addresses unless PDFSHARE_WEBHOOK_ALLOW_PRIVATE, no redirects, time limits). Like
 * the webhooks' outbox: a claim counts the attempt and holds the delivery for a lease before anything is sent
 * (at least once, never lost to a kill -9); a failure is retried with the same backoff for a day; the log keeps
 * every delivery's last answer.
 */
export function startNotifier(ctx: AppContext, options: { pollMs?: number; resolve?: Resolve; sender?: SmtpSender } = {}): Notifier {
  const mail = options.sender ?? (ctx.config.smtpUrl === undefined ? undefined : smtpSender(ctx.config.smtpUrl))
  const shutdown = new AbortController()
  const timeoutMs = ctx.config.webhookTimeout * 1000
  let pumping: Promise<void> | undefined
  let again = false
  let stopped = false
  let prunedAt = -Infinity

  const send = async (delivery: Claimed): Promise<AttemptResult & { permanent?: boolean }> => {
    if (delivery.kind === 'email') {
      if (!mail) return { delivered: false, status: null, error: 'this server has no mail server (PDFSHARE_SMTP_URL)', permanent: true }
      const answer = await mail.send({
        messageId: `<${delivery.id}@${new URL(ctx.config.publicUrl).hostname}>`,
        from: senderOf(ctx.config),
        to: delivery.target,
        subject: delivery.title,
        text: `${delivery.body}\n\n${delivery.url}`,
        html: htmlOf(`${delivery.body}\n\n${delivery.url}`),
      })
      return answer.accepted
        ? { delivered: true, status: null, error: null }
        : { delivered: false, status: null, error: answer.response, permanent: !answer.temporary }
    }
    const request = requestFor(delivery.kind, delivery.target, {
      id: delivery.id,
      title: delivery.title,
      text: delivery.body,
      url: delivery.url,
    })
    return sendRequest(request, {
      allowPrivate: ctx.config.webhookAllowPrivate,
      timeoutMs,
      connectTimeoutMs: Math.min(3_000, timeoutMs),
      shutdown: shutdown.signal,
      resolve: options.resolve,
    })
  }

  const pump = async () => {
    do {
      again = false
      if (stopped) return
      if (ctx.now() - prunedAt >= HOUR) {
        prunedAt = ctx.now()
        await prune(ctx)
      }
      await routeEvents(ctx)
      const claimed = await claim(ctx, CONCURRENCY)
      await Promise.all(
        claimed.map(async (delivery) => {
          const result = await send(delivery)
          if (result.detail) ctx.log.info(`notification ${delivery.id}: ${result.detail}`)
          await recordAttempt(ctx, delivery, result)
        }),
      )
      if (claimed.length === CONCURRENCY) again = true
    } while (again)
  }
  const nudge = () => {
    if (stopped) return
    if (pumping) {
      again = true
      return
    }
    pumping = pump()
      .catch((error: unknown) => ctx.log.error('notifier: could not route or send notifications', error))
      .finally(() => {
        pumping = undefined
      })
  }
  const unwake = onOutboxWritten(ctx, nudge)
  const timer = setInterval(nudge, options.pollMs ?? POLL_MS)
  nudge()

  return {
    nudge,
    async idle() {
      while (pumping) await pumping
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      unwake()
      shutdown.abort()
      await pumping
      mail?.close()
    },
  }
}

/** Forgets routed events after KEEP_EVENTS_MS and finished deliveries after KEEP_DELIVERIES_MS (at most hourly). */
async function prune(ctx: AppContext): Promise<void> {
  const { readerEvents, notificationDeliveries: deliveries } = ctx.db.tables
  const now = ctx.now()
  await ctx.db.orm.batch([
    ctx.db.orm
      .delete(readerEvents)
      .where(and(inArray(readerEvents.state, ['sent', 'digested', 'done']), lt(readerEvents.at, now - KEEP_EVENTS_MS))),
    ctx.db.orm
      .delete(deliveries)
      .where(and(inArray(deliveries.status, ['delivered', 'failed']), lt(deliveries.createdAt, now - KEEP_DELIVERIES_MS))),
  ])
}

/** Claims up to `count` due deliveries with their channels: counts the attempt and holds them for the lease. */
async function claim(ctx: AppContext, count: number): Promise<Claimed[]> {
  const { notificationDeliveries: deliveries, notificationChannels: channels } = ctx.db.tables
  const now = ctx.now()
  const due = sql`${deliveries.status} = 'pending' AND ${deliveries.nextAttemptAt} <= ${now}`
  const candidates = await ctx.db.orm
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(due)
    .orderBy(deliveries.nextAttemptAt, deliveries.seq)
    .limit(count)
  if (candidates.length === 0) return []
  const claimed = await ctx.db.orm
    .update(deliveries)
    .set({ nextAttemptAt: now + LEASE_MS, attempts: sql`${deliveries.attempts} + 1` })
    .where(
      and(
        inArray(
          deliveries.id,
          candidates.map((row) => row.id),
        ),
        due,
      ),
    )
    .returning()
  if (claimed.length === 0) return []
  const targets = await ctx.db.orm
    .select({ id: channels.id, kind: channels.kind, target: channels.target })
    .from(channels)
    .where(
      inArray(
        channels.id,
        claimed.map((row) => row.channelId),
      ),
    )
  const byId = new Map(targets.map((row) => [row.id, row]))
  return claimed.flatMap((row) => {
    const channel = byId.get(row.channelId)
    return channel && isChannelKind(channel.kind) ? [{ ...row, kind: channel.kind, target: channel.target }] : []
  })
}

async function recordAttempt(ctx: AppContext, delivery: Claimed, result: AttemptResult & { permanent?: boolean }): Promise<void> {
  const { notificationDeliveries: deliveries } = ctx.db.tables
  const now = ctx.now()
  const mine = and(eq(deliveries.id, delivery.id), eq(deliveries.status, 'pending'))
  if (result.delivered) {
    ctx.metrics.outboxAttempt('notifications', 'delivered')
    await ctx.db.orm
      .update(deliveries)
      .set({ status: 'delivered', deliveredAt: now, lastStatus: result.status, lastError: null })
      .where(mine)
    return
  }
  const next = result.permanent ? null : nextAttemptAt({ createdAt: delivery.createdAt, attempts: delivery.attempts, now })
  ctx.metrics.outboxAttempt('notifications', next === null ? 'failed' : 'retry')
  await ctx.db.orm
    .update(deliveries)
    .set(
      next === null
        ? { status: 'failed', lastStatus: result.status, lastError: result.error }
        : { nextAttemptAt: next, lastStatus: result.status, lastError: result.error },
    )
    .where(mine)
}
