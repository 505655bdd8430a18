import { t, type Static } from 'elysia'
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS } from '../../shared/webhook-shapes'

const iso = (description: string) => t.String({ description: `${description}; ISO 8601 UTC with milliseconds` })
const isoOrNull = (description: string) =>
  t.Union([t.String(), t.Null()], { description: `${description}; ISO 8601 UTC with milliseconds` })

// Spelled out (a mapped array would type as a plain array, which Elysia's response types do not unwrap); the
// test of the API checks it against WEBHOOK_EVENTS.
export const WebhookEventSchema = t.Union(
  [
    t.Literal('file.uploaded'),
    t.Literal('file.received'),
    t.Literal('file.replaced'),
    t.Literal('file.deleted'),
    t.Literal('link.viewed'),
    t.Literal('link.downloaded'),
  ],
  { description: 'An event a webhook can ask for' },
)

/** The Webhook resource. Its secret is never part of it: it is shown once, in the answer to the create. */
export const WebhookSchema = t.Object(
  {
    id: t.String({ description: 'Opaque, URL-safe' }),
    url: t.String({ description: 'Where deliveries are POSTed' }),
    events: t.Array(WebhookEventSchema, { description: 'The events it asked for' }),
    createdAt: iso('When it was created'),
  },
  { title: 'Webhook' },
)
export type WebhookDto = Static<typeof WebhookSchema>

export const NewWebhookSchema = t.Object(
  {
    ...WebhookSchema.properties,
    secret: t.String({
      description: 'whsec_<base64>: the Standard Webhooks signing secret. Shown only in this answer; keep it',
    }),
  },
  { title: 'NewWebhook' },
)
export type NewWebhookDto = Static<typeof NewWebhookSchema>

/** One delivery of an event to a webhook: the delivery log. Its id is the `webhook-id` header of every attempt. */
export const DeliverySchema = t.Object(
  {
    id: t.String({ description: 'msg_…: the webhook-id header, the same on every attempt' }),
    event: t.String({ description: 'The event type (one of the webhook events, or webhook.test)' }),
    status: t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('failed')], {
      description: 'pending (to be sent or retried), delivered (a 2xx answer), failed (no 2xx within 24 h)',
    }),
    attempts: t.Integer({ description: 'Attempts started so far' }),
    lastStatus: t.Union([t.Integer(), t.Null()], { description: "The last attempt's HTTP status; null: none (no answer)" }),
    lastError: t.Union([t.String(), t.Null()], { description: 'Why the last attempt failed; null when it did not' }),
    createdAt: iso('When the event happened'),
    deliveredAt: isoOrNull('When a receiver answered 2xx'),
    nextAttemptAt: isoOrNull('When it is tried next; null unless pending'),
  },
  { title: 'WebhookDelivery' },
)
export type DeliveryDto = Static<typeof DeliverySchema>

export const NewWebhookEnvelope = t.Object({ success: t.Literal(true), data: NewWebhookSchema })
export const WebhookListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(WebhookSchema) })
export const WebhookDeletedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) })
export const DeliveryEnvelope = t.Object({ success: t.Literal(true), data: DeliverySchema })
export const DeliveryListEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Array(DeliverySchema),
  nextCursor: t.Union([t.String(), t.Null()], { description: 'Pass as ?cursor= for the next page; null: no more' }),
})

export const WebhookIdParams = t.Object({ id: t.String() })

export const DeliveriesQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20, error: () => 'limit must be an integer from 1 to 100' })),
  cursor: t.Optional(
    t.String({
      maxLength: 40,
      description: 'nextCursor of the previous page',
      error: () => 'cursor must be the nextCursor of a previous page',
    }),
  ),
})

const EVENTS_RULE = `events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`

/** The JSON body of POST /api/webhooks. Unknown fields are ignored. */
export const WebhookJson = t.Object(
  {
    url: t.String({
      minLength: 1,
      maxLength: WEBHOOK_LIMITS.url,
      description: `An absolute http(s) URL without credentials, at most ${WEBHOOK_LIMITS.url} characters`,
      error: () => `url must be an absolute http(s) URL of at most ${WEBHOOK_LIMITS.url} characters`,
    }),
    events: t.Array(WebhookEventSchema, { minItems: 1, maxItems: 20, description: 'The events to send', error: () => EVENTS_RULE }),
  },
  {
    additionalProperties: true,
    error: () => 'The JSON body must be an object, e.g. {"url": "https://ntfy.example/pdf", "events": ["file.uploaded"]}',
  },
)
