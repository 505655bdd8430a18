import { type SQL, sql } from 'drizzle-orm'
import { activeDialect, type Dialect } from '../../db/dialect'
import { randomHexSql } from '../../db/portable'
import type { SqlStatement } from '../../db/hot-sql'
import { webhookDeliveries, webhooks } from '../../db/tables'
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
 * in the same transaction as the change (put it in the same `ctx.db.batch`, or the same group of the hot
 * connection with `outboxStatement`). Nothing is sent from here: the dispatcher reads the outbox.
 */
export function enqueueEvent(event: OutboxEvent): SQL {
  const payload: WebhookPayload = { type: event.event, timestamp: new Date(event.at).toISOString(), data: event.data }
  return sql`INSERT INTO ${webhookDeliveries} (id, webhook_id, event, payload, created_at, status, attempts, next_attempt_at)
    SELECT 'msg_' || ${sql.raw(randomHexSql())}, ${webhooks.id}, ${event.event}, ${JSON.stringify(payload)}, ${event.at}, 'pending', 0, ${event.at}
    FROM ${webhooks}
    WHERE ${webhooks.ownerId} = ${event.ownerId} AND ${webhooks.events} LIKE ${eventPattern(event.event)}
      ${event.onlyIf ? sql`AND ${event.onlyIf}` : sql``}`
}

/**
 * The hot path's form, for a group of the hot connection (`ctx.sql.runGroups`, e.g. in a view's finalize),
 * where it runs for every counted view: the same statement as `enqueueEvent` as a fixed SQL text (kept
 * prepared by the hot connection) with the values as arguments, instead of building it with drizzle each
 * time (a tenth of a counted view's CPU, measured). `onlyIfPreviousChanged`: only if the statement just
 * before it in the group changed one row.
 */
export function outboxStatement(event: Omit<OutboxEvent, 'onlyIf'> & { onlyIfPreviousChanged?: boolean }): SqlStatement {
  const payload: WebhookPayload = { type: event.event, timestamp: new Date(event.at).toISOString(), data: event.data }
  return {
    sql: outboxSql(),
    args: [event.event, JSON.stringify(payload), event.at, event.at, event.ownerId, eventPattern(event.event)],
    onlyIfPreviousChanged: event.onlyIfPreviousChanged,
  }
}

/**
 * `webhooks.events` is a JSON array of names: a webhook wants an event when its text holds the quoted name.
 * Exact, because event names are a fixed set without LIKE's wildcards; and the same on both databases.
 */
export const eventPattern = (event: string) => `%"${event}"%`

const outboxSql = () => {
  const dialect = activeDialect()
  if (outboxText?.dialect !== dialect) outboxText = { dialect, text: outboxTextFor() }
  return outboxText.text
}
let outboxText: { dialect: Dialect; text: string } | undefined
const outboxTextFor =
  () => `INSERT INTO "webhook_deliveries" ("id", "webhook_id", "event", "payload", "created_at", "status", "attempts", "next_attempt_at")
  SELECT 'msg_' || ${randomHexSql()}, "id", ?, ?, ?, 'pending', 0, ? FROM "webhooks"
  WHERE "owner_id" = ? AND "events" LIKE ?`
