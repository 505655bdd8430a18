import { count, eq } from 'drizzle-orm'
import type { Database } from '../../db/database'
import type { Outbox } from './metrics'

/** What waits to be sent in each outbox: three counts on the (status, next attempt) indexes. */
export async function outboxDepth(db: Database): Promise<Record<Outbox, number>> {
  const { webhookDeliveries, mailOutbox, notificationDeliveries } = db.tables
  const [webhooks, mail, notifications] = await Promise.all([
    db.orm.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending')),
    db.orm.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'pending')),
    db.orm.select({ n: count() }).from(notificationDeliveries).where(eq(notificationDeliveries.status, 'pending')),
  ])
  return { webhooks: webhooks[0]?.n ?? 0, mail: mail[0]?.n ?? 0, notifications: notifications[0]?.n ?? 0 }
}
