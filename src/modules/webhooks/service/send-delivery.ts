import { webhookSignature } from './signing'
import { type Resolve, targetRefusal } from './target-safety'

/** At most this much of a receiver's answer is read (for the delivery log's error text); the rest is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024
const ERROR_SNIPPET = 200

export type OutgoingDelivery = { id: string; payload: string; url: string; secret: string }
export type AttemptResult = { delivered: boolean; status: number | null; error: string | null }

export type SendOptions = {
  allowPrivate: boolean
  timeoutMs: number
  /** Seconds for the `webhook-timestamp` header come from it. */
  now: () => number
  /** Aborted when the server stops. */
  shutdown: AbortSignal
  resolve?: Resolve
}

/**
 * One attempt of a delivery: check where it goes (every attempt, after resolving the host), then POST the
 * stored body, signed, with a time limit that covers the answer too, without following a redirect (a 3xx is
 * a failure: the receiver must name its final URL). Never throws: what went wrong is the result's `error`.
 */
export async function sendDelivery(delivery: OutgoingDelivery, options: SendOptions): Promise<AttemptResult> {
  let url: URL
  try {
    url = new URL(delivery.url)
  } catch {
    return failure(null, 'the webhook URL cannot be parsed')
  }
  const refusal = await targetRefusal(url, options.allowPrivate, options.resolve)
  if (refusal) return failure(null, refusal)

  const timestamp = Math.floor(options.now() / 1000)
  const timeout = AbortSignal.timeout(options.timeoutMs)
  try {
    const response = await fetch(url, {
      method: 'POST',
      body: delivery.payload,
      redirect: 'manual',
      signal: AbortSignal.any([timeout, options.shutdown]),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pdfshare-webhooks',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(delivery.secret, delivery.id, timestamp, delivery.payload),
      },
    })
    const text = await readBounded(response)
    if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status, error: null }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location')
      return failure(
        response.status,
        `HTTP ${response.status}: redirects are not followed${location ? ` (to ${location.slice(0, 300)})` : ''}`,
      )
    }
    const snippet = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_SNIPPET)
    return failure(response.status, `HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`)
  } catch (error) {
    if (options.shutdown.aborted) return failure(null, 'interrupted: pdfshare was stopping')
    if (timeout.aborted) return failure(null, `no answer within ${options.timeoutMs / 1000} s`)
    return failure(null, `could not connect: ${(error as Error).message ?? String(error)}`)
  }
}

const failure = (status: number | null, error: string): AttemptResult => ({ delivered: false, status, error })

/** The first MAX_RESPONSE_BYTES of the answer as text; the connection is released without reading further. */
async function readBounded(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES))
}
