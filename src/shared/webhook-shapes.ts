/**
 * Webhooks as the dashboard and the server both know them: the events, the limits, and the shapes of the
 * Webhook and WebhookDelivery resources. Bundled into the browser: plain types and constants only. A type test
 * (test/types/shared-shapes.test.ts) keeps the DTOs equal to the types of modules/webhooks' schemas.
 */

/** What a webhook can ask for. `webhook.test` is sent only by the "send test event" action. */
export const WEBHOOK_EVENTS = ['file.uploaded', 'file.replaced', 'file.deleted', 'link.viewed', 'link.downloaded'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const WEBHOOK_LIMITS = {
  /** Longest URL, in characters. */
  url: 2000,
  /** Webhooks a user may have. */
  perUser: 20,
  /** Test events (POST /api/webhooks/:id/test) a user may send per minute. */
  testsPerMinute: 10,
} as const

/** Each entry of GET /api/webhooks. The secret is never part of it. */
export type WebhookDto = { id: string; url: string; events: WebhookEvent[]; createdAt: string }

/** The answer to POST /api/webhooks: the webhook and, this once, its `whsec_…` signing secret. */
export type NewWebhookDto = { id: string; url: string; events: WebhookEvent[]; createdAt: string; secret: string }

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

/** Each entry of GET /api/webhooks/:id/deliveries (newest first), and the answer to POST /api/webhooks/:id/test. */
export type DeliveryDto = {
  id: string
  event: string
  status: DeliveryStatus
  attempts: number
  lastStatus: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
  nextAttemptAt: string | null
}
