import { and, desc, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { requireMail } from '../mail/message'
import { CHANNEL_TESTS_PER_MINUTE, type ChannelKind, checkTarget, MAX_CHANNELS } from './channels'
import { rateLimitFor } from '../limits/rate-limit'
import { literalTargetRefusal } from '../outbound/target-safety'
import type { NotificationChannelRow, NotificationDeliveryRow } from '../../db/tables'
import { badRequest, notFound, rateLimited } from '../../errors'
import { isWellFormedId, randomId } from '../../lib/ids'

const channelNotFound = () => notFound('Channel not found')

/**
 * A new channel of the owner: its target checked for its kind (an email channel needs a mail server; a URL may
 * not name a private address unless PDFSHARE_WEBHOOK_ALLOW_PRIVATE), at most MAX_CHANNELS a user.
 */
export async function addChannel(
  ctx: AppContext,
  input: { ownerId: string; kind: ChannelKind; target: string },
): Promise<NotificationChannelRow> {
  const checked = checkTarget(input.kind, input.target)
  if ('problem' in checked) throw badRequest(checked.problem)
  if (input.kind === 'email') requireMail(ctx)
  else {
    const refusal = literalTargetRefusal(new URL(checked.target), ctx.config.webhookAllowPrivate)
    if (refusal) throw badRequest(refusal)
  }
  const { notificationChannels: channels } = ctx.db.tables
  const row = { id: randomId(), ownerId: input.ownerId, kind: input.kind, target: checked.target, createdAt: ctx.now() }
  const inserted = await ctx.db.orm.all<{ seq: number }>(sql`
    INSERT INTO ${channels} (id, owner_id, kind, target, created_at)
    SELECT ${row.id}, ${row.ownerId}, ${row.kind}, ${row.target}, ${row.createdAt}
    WHERE (SELECT count(*) FROM ${channels} WHERE owner_id = ${row.ownerId}) < ${MAX_CHANNELS}
    RETURNING seq`)
  if (inserted.length === 0) throw badRequest(`A user may have at most ${MAX_CHANNELS} notification channels; delete one first`)
  return { ...row, seq: Number(inserted[0]!.seq) }
}

export function listChannels(ctx: AppContext, input: { ownerId: string }): Promise<NotificationChannelRow[]> {
  const { notificationChannels: channels } = ctx.db.tables
  return ctx.db.orm.select().from(channels).where(eq(channels.ownerId, input.ownerId)).orderBy(channels.seq)
}

const owned = (ctx: AppContext, input: { ownerId: string; id: string }) => {
  const { notificationChannels: channels } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw channelNotFound()
  return and(eq(channels.id, input.id), eq(channels.ownerId, input.ownerId))
}

/** Deletes a channel and its deliveries; another user's is the same 404 as a missing one. */
export async function deleteChannel(ctx: AppContext, input: { ownerId: string; id: string }): Promise<NotificationChannelRow> {
  const { notificationChannels: channels } = ctx.db.tables
  const [row] = await ctx.db.orm.delete(channels).where(owned(ctx, input)).returning()
  if (!row) throw channelNotFound()
  return row
}

export type TestChannel = (input: { ownerId: string; id: string }) => Promise<{ delivery: NotificationDeliveryRow; kind: string }>

/**
 * "Send a test message": one to this channel now, through the outbox like any other, so it shows in the log. At
 * most CHANNEL_TESTS_PER_MINUTE a user (429 with Retry-After past it): test messages are the one kind of delivery
 * a user can make as fast as they can send requests, each a request to a URL of their choosing.
 */
export function channelTester(ctx: AppContext): TestChannel {
  const perUser = rateLimitFor(ctx, 'of notification test messages per user', { perMinute: CHANNEL_TESTS_PER_MINUTE })
  return async (input) => {
    const decision = await perUser.hit(input.ownerId, ctx.now())
    if (decision && !decision.allowed) throw rateLimited(decision)
    return testChannel(ctx, input)
  }
}

async function testChannel(
  ctx: AppContext,
  input: { ownerId: string; id: string },
): Promise<{ delivery: NotificationDeliveryRow; kind: string }> {
  const { notificationChannels: channels, notificationDeliveries: deliveries } = ctx.db.tables
  const [channel] = await ctx.db.orm.select().from(channels).where(owned(ctx, input))
  if (!channel) throw channelNotFound()
  const now = ctx.now()
  const [row] = await ctx.db.orm
    .insert(deliveries)
    .values({
      id: randomId(),
      ownerId: channel.ownerId,
      channelId: channel.id,
      title: 'pdfshare test notification',
      body: 'This channel works: pdfshare will tell you here when someone reads your documents.',
      url: `${ctx.config.publicUrl}/app#/notifications`,
      createdAt: now,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
    })
    .returning()
  ctx.jobs.wake('outbox')
  return { delivery: row!, kind: channel.kind }
}

/** The owner's most recent deliveries, newest first, with the kind of their channel. */
export async function listNotificationDeliveries(ctx: AppContext, input: { ownerId: string; limit: number }) {
  const { notificationChannels: channels, notificationDeliveries: deliveries } = ctx.db.tables
  return ctx.db.orm
    .select({ delivery: deliveries, kind: channels.kind })
    .from(deliveries)
    .innerJoin(channels, eq(channels.id, deliveries.channelId))
    .where(eq(deliveries.ownerId, input.ownerId))
    .orderBy(desc(deliveries.seq))
    .limit(input.limit)
}
