import { type AttemptResult, type SendOptions, sendRequest } from '../outbound/send-request'
import { webhookSignature } from './signing'

export type { AttemptResult }

export type OutgoingDelivery = { id: string; payload: string; url: string; secret: string }

/**
 * One attempt of a webhook delivery: the stored body, POSTed as JSON with the Standard Webhooks headers
 * (its id, the time, the signature), by the same rules as every request to an owner's URL
 * (core/outbound/send-request.ts). `now` gives the `webhook-timestamp`. Never throws.
 */
export function sendDelivery(delivery: OutgoingDelivery, options: SendOptions & { now: () => number }): Promise<AttemptResult> {
  const timestamp = Math.floor(options.now() / 1000)
  return sendRequest(
    {
      url: delivery.url,
      method: 'POST',
      body: delivery.payload,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pdfshare-webhooks',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(delivery.secret, delivery.id, timestamp, delivery.payload),
      },
    },
    options,
  )
}
