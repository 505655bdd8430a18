import { type SQL, sql } from 'drizzle-orm'
import { type Database, drizzleSqlOf } from '../../db/database'
import type { SqlArg, SqlStatement } from '../../db/hot-sql'
import type { WebhookEvent } from '../../shared/webhook-shapes'

/** The body of every delivery (the Standard Webhooks shape): the event type, when it happened, and its data. */
export type WebhookPayload = { type: WebhookEvent | 'webhook.test'; timestamp: string; data: Record<string, unknown> }

export type OutboxEvent = {
  event: WebhookEvent
  /** Whose webhooks get it: the owner of the file the event is about. */
  ownerId: string
  data: Record<string, unknown>
  /** When the change happened (ms); the payload's timestamp and the first attempt's time. */
  at: number
  /** A condition that holds only if the change this event describes happened in the same transaction. */
  onlyIf?: SQL
}

/**
 * The outbox statement of one event: a pending delivery for each of the owner's webhooks that asked for it,
 * in the same transaction as the change (put it in the same `ctx.db.orm.batch`, or, as `outboxStatement`, in the
 * same group of the hot connection). Nothing is sent from here: the dispatcher reads the outbox.
 */
export function enqueueEvent(db: Pick<Database, 'portable'>, event: OutboxEvent): SQL {
  const { text, args } = outboxInsert(db, event)
  return sql`${drizzleSqlOf(text, args)}${event.onlyIf ? sql` AND ${event.onlyIf}` : sql``}`
}

/**
 * The same statement for a group of the hot connection (`ctx.db.hot.runGroups`, e.g. in a view's finalize),
 * where it runs for every counted view: a fixed SQL text (kept prepared by the hot connection) with the values
 * as arguments, instead of building it with drizzle each time (a tenth of a counted view's CPU, measured).
 * `onlyIfPreviousChanged`: only if the statement just before it in the group changed one row.
 */
export function outboxStatement(
  db: Pick<Database, 'portable'>,
  event: Omit<OutboxEvent, 'onlyIf'> & { onlyIfPreviousChanged?: boolean },
): SqlStatement {
  const { text, args } = outboxInsert(db, event)
  return { sql: text, args, onlyIfPreviousChanged: event.onlyIfPreviousChanged }
}

/**
 * `webhooks.events` is a JSON array of names: a webhook wants an event when its text holds the quoted name.
 * Exact, because event names are a fixed set without LIKE's wildcards; and the same on both databases.
 */
export const eventPattern = (event: string) => `%"${event}"%`

/** The statement, written once: its text for the database's dialect and its values. */
function outboxInsert(db: Pick<Database, 'portable'>, event: Omit<OutboxEvent, 'onlyIf'>): { text: string; args: SqlArg[] } {
  const payload: WebhookPayload = { type: event.event, timestamp: new Date(event.at).toISOString(), data: event.data }
  // The same text every time for one database, which its hot connection keeps prepared.
  const text = `INSERT INTO "webhook_deliveries" ("id", "webhook_id", "event", "payload", "created_at", "status", "attempts", "next_attempt_at")
  SELECT 'msg_' || ${db.portable.randomHex}, "id", ?, ?, ?, 'pending', 0, ? FROM "webhooks"
  WHERE "owner_id" = ? AND "events" LIKE ?`
  return { text, args: [event.event, JSON.stringify(payload), event.at, event.at, event.ownerId, eventPattern(event.event)] }
}
