import { and, eq, inArray, lt, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { isChannelKind } from './channels'
import { htmlOf, senderOf } from '../mail/message'
import { type SmtpSender, smtpSender } from '../mail/transport'
import { nextAttemptAt } from '../outbox/backoff'
import type { JobHandle } from '../jobs/jobs'
import { fairOutboxJob } from '../outbox/fair-job'
import type { FairCandidate } from '../outbox/fair-share'
import { type AttemptResult, sendRequest } from '../outbound/send-request'
import type { Resolve } from '../outbound/target-safety'
import type { NotificationDeliveryRow } from '../../db/tables'
import { isLanguage, type Language } from '../../shared/languages'
import { requestFor } from './formats'
import { routeEvents } from './route-events'

export type Notifier = JobHandle

/** Deliveries sent at once. */
const CONCURRENCY = 4
const POLL_MS = 5_000
const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
/** Routed events are kept a while (the cap counts the last hour), deliveries as long as the log shows them. */
const KEEP_EVENTS_MS = 2 * DAY
export const KEEP_DELIVERIES_MS = 30 * DAY
/** How long a claimed delivery is held before another instance may try it: at least a mail's limits and then some. */
const LEASE_MS = 60_000
/** Due deliveries looked at per claim: the oldest of each channel, at most this many in all. */
const CANDIDATES = 500

type Claimed = NotificationDeliveryRow & { kind: string; target: string; language: Language }
type Attempt = AttemptResult & { permanent?: boolean }

/**
 * Tells owners of their readers, beside the server: routes new reader events and due digests to deliveries
 * (route-events.ts), then sends the deliveries, each to its channel — a mail through PDFSHARE_SMTP_URL, or a
 * request in the format of ntfy, Gotify, Slack, Discord or Matrix (formats.ts) by the rules of every request to
 * an owner's URL (no private addresses unless PDFSHARE_WEBHOOK_ALLOW_PRIVATE, no redirects, time limits). Like
 * the webhooks' outbox: a claim counts the attempt and holds the delivery for a lease before anything is sent
 * (at least once, never lost to a kill -9); a failure is retried with the same backoff for a day; the log keeps
 * every delivery's last answer. A send that throws is a failed attempt like any other, so it is retried and then
 * given up, never claimed again forever.
 *
 * Sent fairly, like the webhooks (core/outbox/fair-job.ts), by the job runner: one delivery per channel in flight, free slots round
 * the owners, each refilled as it frees. One owner's channel that never answers, or their pile of test messages,
 * holds one slot; everyone else's messages go past it.
 */
export function startNotifier(ctx: AppContext, options: { pollMs?: number; resolve?: Resolve; sender?: SmtpSender } = {}): Notifier {
  const mail = options.sender ?? (ctx.config.smtpUrl === undefined ? undefined : smtpSender(ctx.config.smtpUrl))
  const timeoutMs = ctx.config.webhookTimeout * 1000
  const connectTimeoutMs = Math.min(3_000, timeoutMs)
  // A request's limits and time to write its result; a mail's limits fit in LEASE_MS.
  const lease = Math.max(LEASE_MS, timeoutMs + connectTimeoutMs + 5_000)
  let prunedAt = -Infinity

  const send = async (delivery: Claimed, shutdown: AbortSignal): Promise<Attempt> => {
    const { kind } = delivery
    if (!isChannelKind(kind))
      return { delivered: false, status: null, error: `pdfshare cannot send to a channel of kind ${kind}`, permanent: true }
    if (kind === 'email') {
      if (!mail) return { delivered: false, status: null, error: 'this server has no mail server (PDFSHARE_SMTP_URL)', permanent: true }
      const answer = await mail.send({
        messageId: `<${delivery.id}@${new URL(ctx.config.publicUrl).hostname}>`,
        from: senderOf(ctx.config),
        to: delivery.target,
        subject: delivery.title,
        text: `${delivery.body}\n\n${delivery.url}`,
        // Written in the owner's language (route-events.ts), which the HTML says too.
        html: htmlOf(`${delivery.body}\n\n${delivery.url}`, delivery.language),
      })
      return answer.accepted
        ? { delivered: true, status: null, error: null }
        : { delivered: false, status: null, error: answer.response, permanent: !answer.temporary }
    }
    const request = requestFor(kind, delivery.target, {
      id: delivery.id,
      title: delivery.title,
      text: delivery.body,
      url: delivery.url,
    })
    return sendRequest(request, {
      allowPrivate: ctx.config.webhookAllowPrivate,
      timeoutMs,
      connectTimeoutMs,
      shutdown,
      resolve: options.resolve,
    })
  }

  /** One attempt; whatever throws on the way (a target the request cannot be made of) is its failure. */
  const attempt = async (delivery: Claimed, shutdown: AbortSignal): Promise<Attempt> => {
    try {
      return await send(delivery, shutdown)
    } catch (error) {
      ctx.log.error(`notification ${delivery.id}: the attempt threw`, error)
      return { delivered: false, status: null, error: 'pdfshare could not make this channel’s request (is its target still valid?)' }
    }
  }

  const job = ctx.jobs.start(
    fairOutboxJob<Claimed>({
      name: 'notifications',
      concurrency: CONCURRENCY,
      perTarget: 1,
      pollMs: options.pollMs ?? POLL_MS,
      async beforeClaim() {
        if (ctx.now() - prunedAt >= HOUR) {
          prunedAt = ctx.now()
          await prune(ctx)
        }
        await routeEvents(ctx)
      },
      candidates: (perChannel) => dueCandidates(ctx, perChannel),
      claim: (ids) => claim(ctx, ids, lease),
      async send(delivery, shutdown) {
        const result = await attempt(delivery, shutdown)
        if (result.detail) ctx.log.info(`notification ${delivery.id}: ${result.detail}`)
        await recordAttempt(ctx, delivery, result)
      },
      sendFailed: (error, delivery) => ctx.log.error(`notification ${delivery.id}: its result could not be written`, error),
      passFailed: (error) => ctx.log.error('notifier: could not route or send notifications', error),
    }),
  )

  const stopJob = job.stop
  return Object.assign(job, {
    async stop() {
      await stopJob()
      mail?.close()
    },
  })
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

/**
 * The due deliveries that may be sent next: the oldest `perChannel` of each channel (a window over the due rows,
 * so one channel's backlog does not hide the others'), the oldest channels' first. A read, as the webhooks' is.
 */
async function dueCandidates(ctx: AppContext, perChannel: number): Promise<FairCandidate[]> {
  const { notificationDeliveries: deliveries } = ctx.db.tables
  const now = ctx.now()
  return ctx.db.orm.all<FairCandidate>(sql`
    SELECT id, channel_id AS "targetId", owner_id AS "ownerId" FROM (
      SELECT id, channel_id, owner_id, next_attempt_at, seq,
        row_number() OVER (PARTITION BY channel_id ORDER BY next_attempt_at, seq) AS place
      FROM ${deliveries}
      WHERE status = 'pending' AND next_attempt_at <= ${now}
    ) due
    WHERE place <= ${perChannel}
    ORDER BY place, next_attempt_at, seq
    LIMIT ${CANDIDATES}`)
}

/** Claims the chosen deliveries still due, with their channels: counts the attempt and holds them for the lease. */
async function claim(ctx: AppContext, ids: string[], lease: number): Promise<Claimed[]> {
  const { notificationDeliveries: deliveries, notificationChannels: channels, users } = ctx.db.tables
  const now = ctx.now()
  const claimed = await ctx.db.orm
    .update(deliveries)
    .set({ nextAttemptAt: now + lease, attempts: sql`${deliveries.attempts} + 1` })
    .where(and(inArray(deliveries.id, ids), sql`${deliveries.status} = 'pending' AND ${deliveries.nextAttemptAt} <= ${now}`))
    .returning()
  if (claimed.length === 0) return []
  const targets = await ctx.db.orm
    .select({ id: channels.id, kind: channels.kind, target: channels.target, language: users.language })
    .from(channels)
    .leftJoin(users, eq(users.id, channels.ownerId))
    .where(
      inArray(
        channels.id,
        claimed.map((row) => row.channelId),
      ),
    )
  const byId = new Map(targets.map((row) => [row.id, row]))
  // A channel deleted meanwhile takes its deliveries with it (the foreign key cascades).
  return claimed.flatMap((row) => {
    const channel = byId.get(row.channelId)
    if (!channel) return []
    // The owner's language, as route-events.ts wrote the delivery in (a team's: the default).
    const language = isLanguage(channel.language) ? channel.language : ctx.config.defaultLanguage
    return [{ ...row, kind: channel.kind, target: channel.target, language }]
  })
}

async function recordAttempt(ctx: AppContext, delivery: Claimed, result: Attempt): Promise<void> {
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
