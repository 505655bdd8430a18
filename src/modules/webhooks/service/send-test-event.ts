import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import type { WebhookPayload } from '../../../core/webhooks/outbox'
import { outboxWritten } from '../../../core/webhooks/wake'
import { type WebhookDeliveryRow, webhookDeliveries, webhooks } from '../../../db/tables'
import { webhookNotFound } from '../../../errors'
import { isWellFormedId } from '../../../lib/ids'
import { type OwnedWebhook, ownedWebhook } from './owned-webhooks'

/**
 * "Send test event": a `webhook.test` delivery to this webhook alone (whatever events it asked for), through
 * the outbox like any other, so it is signed, retried and logged the same way.
 */
export async function sendTestEvent(ctx: AppContext, input: OwnedWebhook): Promise<WebhookDeliveryRow> {
  if (!isWellFormedId(input.id)) throw webhookNotFound()
  const at = ctx.now()
  const payload: WebhookPayload = { type: 'webhook.test', timestamp: new Date(at).toISOString(), data: { webhook: { id: input.id } } }
  const [row] = await ctx.db.all<Record<string, unknown>>(sql`
    INSERT INTO ${webhookDeliveries} (id, webhook_id, event, payload, created_at, status, attempts, next_attempt_at)
    SELECT ${`msg_${randomBytes(16).toString('hex')}`}, ${webhooks.id}, 'webhook.test', ${JSON.stringify(payload)}, ${at}, 'pending', 0, ${at}
    FROM ${webhooks} WHERE ${ownedWebhook(input)}
    RETURNING id`)
  if (!row) throw webhookNotFound()
  const [delivery] = await ctx.db.select().from(webhookDeliveries).where(sql`${webhookDeliveries.id} = ${row.id}`)
  outboxWritten(ctx)
  return delivery!
}
