import { createHmac, randomBytes } from 'node:crypto'

const PREFIX = 'whsec_'

/** A new webhook secret in the Standard Webhooks form: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`
}

/**
 * The `webhook-signature` header of the Standard Webhooks convention: `v1,` and the base64 HMAC-SHA256, keyed
 * with the secret's bytes (the base64 after `whsec_`), of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`
}
