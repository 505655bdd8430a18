/**
 * Webhooks' events and limits, for the server and the dashboard alike. Bundled into the browser: constants and
 * the types derived from them. The Webhook and WebhookDelivery resources' types are those of
 * routes/webhooks/model.ts.
 */

/** What a webhook can ask for. `webhook.test` is sent only by the "send test event" action. */
export const WEBHOOK_EVENTS = ['file.uploaded', 'file.received', 'file.replaced', 'file.deleted', 'link.viewed', 'link.downloaded'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const WEBHOOK_LIMITS = {
  /** Longest URL, in characters. */
  url: 2000,
  /** Webhooks a user may have. */
  perUser: 20,
  /** Test events (POST /api/webhooks/:id/test) a user may send per minute. */
  testsPerMinute: 10,
} as const
