import type { WebhookDeliveryRow, WebhookRow } from '../../db/tables'
import type { DeliveryDto, WebhookDto } from '../../routes/webhooks/model'

const iso = (ms: number) => new Date(ms).toISOString()

/** The only way a webhook row leaves the server: never its secret (the create's answer adds it once). */
export function toWebhookDto(row: WebhookRow): WebhookDto {
  return { id: row.id, url: row.url, events: JSON.parse(row.events), createdAt: iso(row.createdAt) }
}

/** A delivery as the log shows it; never its payload or the webhook's secret. */
export function toDeliveryDto(row: WebhookDeliveryRow): DeliveryDto {
  return {
    id: row.id,
    event: row.event,
    status: row.status as DeliveryDto['status'],
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    createdAt: iso(row.createdAt),
    deliveredAt: row.deliveredAt === null ? null : iso(row.deliveredAt),
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
  }
}

/**
 * A webhook as the audit log keeps it: its id, where it goes (scheme and host only: a path or query may carry the
 * receiver's token) and its events.
 */
export function webhookFacts(row: { id: string; url: string; events?: string }): Record<string, string | string[]> {
  const { protocol, host } = new URL(row.url)
  return {
    webhookId: row.id,
    target: `${protocol}//${host}`,
    ...(row.events !== undefined && { events: JSON.parse(row.events) as string[] }),
  }
}
