import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { WebhookPayload } from './outbox'
import type { WebhookDeliveryRow } from '../../db/tables'
import { rateLimitFor } from '../limits/rate-limit'
import { rateLimited, webhookNotFound } from '../../errors'
import { WEBHOOK_LIMITS } from '../../shared/webhook-shapes'
import { isWellFormedId } from '../../lib/ids'
import { type OwnedWebhook, ownedWebhook } from './owned-webhooks'

export type SendTestEvent = (input: OwnedWebhook) => Promise<WebhookDeliveryRow>

/**
 * "Send test event": a `webhook.test` delivery to this webhook alone (whatever events it asked for), through
 * the outbox like any other, so it is signed, retried and logged the same way. At most
 * WEBHOOK_LIMITS.testsPerMinute a user (429 with Retry-After past it): test events are the one kind of delivery
 * a user can make as fast as they can send requests.
 */
export function testEventSender(ctx: AppContext): SendTestEvent {
  const perUser = rateLimitFor(ctx, 'of webhook test events per user', { perMinute: WEBHOOK_LIMITS.testsPerMinute })
  return async (input) => {
    if (!isWellFormedId(input.id)) throw webhookNotFound()
    const decision = await perUser.hit(input.ownerId, ctx.now())
    if (decision && !decision.allowed) throw rateLimited(decision)
    return sendTestEvent(ctx, input)
  }
}

async function sendTestEvent(ctx: AppContext, input: OwnedWebhook): Promise<WebhookDeliveryRow> {
  const { webhookDeliveries, webhooks } = ctx.db.tables
  const at = ctx.now()
  const payload: WebhookPayload = { type: 'webhook.test', timestamp: new Date(at).toISOString(), data: { webhook: { id: input.id } } }
  const [row] = await ctx.db.orm.all<Record<string, unknown>>(sql`
    INSERT INTO ${webhookDeliveries} (id, webhook_id, event, payload, created_at, status, attempts, next_attempt_at)
    SELECT ${`msg_${randomBytes(16).toString('hex')}`}, ${webhooks.id}, 'webhook.test', ${JSON.stringify(payload)}, ${at}, 'pending', 0, ${at}
    FROM ${webhooks} WHERE ${ownedWebhook(ctx.db.tables, input)}
    RETURNING id`)
  if (!row) throw webhookNotFound()
  const [delivery] = await ctx.db.orm.select().from(webhookDeliveries).where(sql`${webhookDeliveries.id} = ${row.id}`)
  ctx.jobs.wake('outbox')
  return delivery!
}
