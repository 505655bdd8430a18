import type { Kit } from './kit'
import type { OwnerTables } from './owners'

/** Webhooks (core/webhooks): an owner's webhooks and the outbox of their deliveries. */
export function webhookTables(k: Kit, { owners }: { owners: OwnerTables['owners'] }) {
  /** An owner's webhook: where to send which events, and the secret the deliveries are signed with. */
  const webhooks = k.table(
    'webhooks',
    {
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      ownerId: k
        .text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      url: k.text('url').notNull(),
      /** A JSON array of event types, e.g. ["file.uploaded","link.viewed"]; text on PostgreSQL too: only ever read whole. */
      events: k.text('events').notNull(),
      /** `whsec_<base64>` (Standard Webhooks); shown once, when the webhook is created. */
      secret: k.text('secret').notNull(),
      createdAt: k.millis('created_at').notNull(),
    },
    (table) => [k.index('webhooks_owner_idx').on(table.ownerId, table.seq)],
  )

  /**
   * The outbox: one row an event a webhook wants, written in the same transaction as the change it describes
   * (so a kill -9 loses none, and a change that did not commit sends none), then delivered at least once.
   */
  const webhookDeliveries = k.table(
    'webhook_deliveries',
    {
      seq: k.seq(),
      /** The `webhook-id` header: the same on every attempt, so receivers can drop repeats. */
      id: k.text('id').notNull().unique(),
      webhookId: k
        .text('webhook_id')
        .notNull()
        .references(() => webhooks.id, { onDelete: 'cascade' }),
      event: k.text('event').notNull(),
      /** The JSON body, exactly as it is sent and signed (text on PostgreSQL too: jsonb would reorder its keys). */
      payload: k.text('payload').notNull(),
      createdAt: k.millis('created_at').notNull(),
      /** pending, delivered or failed. */
      status: k.text('status').notNull(),
      attempts: k.integer('attempts').notNull().default(0),
      nextAttemptAt: k.millis('next_attempt_at').notNull(),
      lastStatus: k.integer('last_status'),
      lastError: k.text('last_error'),
      deliveredAt: k.millis('delivered_at'),
    },
    (table) => [
      k.index('webhook_deliveries_due_idx').on(table.status, table.nextAttemptAt),
      k.index('webhook_deliveries_webhook_idx').on(table.webhookId, table.seq),
    ],
  )

  return { webhooks, webhookDeliveries }
}
