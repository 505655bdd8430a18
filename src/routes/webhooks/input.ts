import { WEBHOOK_EVENTS, type WebhookEvent } from '../../shared/webhook-shapes'
import { badRequest } from '../../errors'
import type { Static } from 'elysia'
import type { WebhookJson } from './model'

export type WebhookInput = { url: URL; events: WebhookEvent[] }

/** A POST /api/webhooks body (checked against WebhookJson by its route): an http(s) URL without credentials, and its events once each, in the list's order. */
export function webhookFromJson(json: Static<typeof WebhookJson>): WebhookInput {
  if (!URL.canParse(json.url)) throw badRequest('url must be an absolute http(s) URL such as https://ntfy.example/pdf')
  const url = new URL(json.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('url must use http or https')
  if (url.username || url.password) throw badRequest('url must not carry credentials (user:password@); put a token in the path or query')
  return { url, events: WEBHOOK_EVENTS.filter((event) => json.events.includes(event)) }
}
