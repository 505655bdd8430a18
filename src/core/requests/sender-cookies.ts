import { cookieValues, setCookieHeader } from '../../lib/cookies'
import { isSignedValue, signedValue } from '../../lib/signed-value'
import type { RequestRow } from '../../db/tables'

/**
 * What a file request keeps in its senders' browsers, as a share link does for its readers (core/share/reader-cookies.ts):
 * signed values, nothing stored on the server, each in a cookie scoped to the request's own path
 * (`<basePath>/u/<slug>`), HttpOnly, SameSite=Lax, Secure when the public URL is https. Their purposes are their
 * own (`send unlock`, `sender`), so no value of a share link's cookies opens a request, nor the other way round.
 *
 * - `pdfshare_send_unlock` (12 h): the sender gave the request's password; signed over its hash, so a new or
 *   removed password ends every unlock at once.
 * - `pdfshare_sender` (12 h): the address the sender gave at the request's gate, and whether a mailed code proved
 *   it (`<address, base64url>.<v|e>.<signed value>`); judged again on every upload against the lists as they are.
 */
export const SENDER_COOKIES = {
  unlock: { name: 'pdfshare_send_unlock', lifetimeMs: 12 * 60 * 60 * 1000 },
  sender: { name: 'pdfshare_sender', lifetimeMs: 12 * 60 * 60 * 1000 },
} as const

/** A sender at a request's gate: the address they gave, and whether they proved it with a mailed code. */
export type Sender = { address: string; verified: boolean }

const unlockFields = (request: Pick<RequestRow, 'id' | 'passwordHash'>) => ['send unlock', request.id, request.passwordHash ?? '']
const senderFields = (requestId: string, sender: Sender) => ['sender', requestId, sender.address, sender.verified ? 'v' : 'e']

/** A fresh unlock value of the request (its password was given). */
export const unlockValue = (key: Uint8Array, request: Pick<RequestRow, 'id' | 'passwordHash'>, now: number) =>
  signedValue(key, unlockFields(request), now + SENDER_COOKIES.unlock.lifetimeMs)

/** Whether the Cookie header holds a valid unlock of the request as its password is now. */
export const isUnlocked = (key: Uint8Array, request: Pick<RequestRow, 'id' | 'passwordHash'>, cookies: string | null, now: number) =>
  cookieValues(cookies, SENDER_COOKIES.unlock.name).some((value) => isSignedValue(key, unlockFields(request), value, now))

/** A fresh `pdfshare_sender` value of the request for `sender`. */
export function senderCookieValue(key: Uint8Array, requestId: string, sender: Sender, now: number): string {
  const signed = signedValue(key, senderFields(requestId, sender), now + SENDER_COOKIES.sender.lifetimeMs)
  return `${Buffer.from(sender.address).toString('base64url')}.${sender.verified ? 'v' : 'e'}.${signed}`
}

/** The sender a valid `pdfshare_sender` cookie of the request names (a verified one first), if any. */
export function senderOfCookies(key: Uint8Array, requestId: string, cookies: string | null, now: number): Sender | undefined {
  const senders: Sender[] = []
  for (const value of cookieValues(cookies, SENDER_COOKIES.sender.name)) {
    const [encoded, flag, ...rest] = value.split('.')
    if (!encoded || (flag !== 'v' && flag !== 'e') || encoded.length > 400) continue
    const sender = { address: Buffer.from(encoded, 'base64url').toString(), verified: flag === 'v' }
    if (isSignedValue(key, senderFields(requestId, sender), rest.join('.'), now)) senders.push(sender)
  }
  return senders.find((sender) => sender.verified) ?? senders[0]
}

/** The Set-Cookie header of a sender cookie (`kind`) holding `value`, for the request at `path`. */
export function senderCookieHeader(kind: keyof typeof SENDER_COOKIES, value: string, path: string, secure: boolean): string {
  const { name, lifetimeMs } = SENDER_COOKIES[kind]
  return setCookieHeader(name, value, { path, lifetimeMs, secure })
}
