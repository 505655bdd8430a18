/**
 * Webhooks as the dashboard reads them: GET/POST /api/webhooks, DELETE /api/webhooks/:id, the delivery log
 * and the test event (issue 14's agreed shapes). Bundled into the browser: plain types and constants only.
 */

/** The events a webhook can ask for (the same list as core/webhooks/outbox.ts's WEBHOOK_EVENTS; a type test keeps them equal). */
export const WEBHOOK_EVENT_NAMES = ['file.uploaded', 'file.replaced', 'file.deleted', 'link.viewed', 'link.downloaded'] as const
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number]

/** A webhook as listed: never its secret. */
export type WebhookDto = {
  id: string
  url: string
  events: WebhookEventName[]
  createdAt: string
}

/** POST /api/webhooks answers with the secret, once (`whsec_<base64>`, the Standard Webhooks form). */
export type CreatedWebhookDto = {
  id: string
  url: string
  events: WebhookEventName[]
  createdAt: string
  secret: string
}

export type WebhookInput = { url: string; events: WebhookEventName[] }

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

/** One entry of GET /api/webhooks/:id/deliveries (newest first). */
export type WebhookDeliveryDto = {
  id: string
  /** One of the webhook events, or webhook.test. */
  event: string
  status: DeliveryStatus
  attempts: number
  /** The receiver's last HTTP status; null when it never answered. */
  lastStatus: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
  nextAttemptAt: string | null
}

export type DeliveriesPage = { data: WebhookDeliveryDto[]; nextCursor: string | null }
