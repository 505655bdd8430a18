import { timingSafeEqual } from 'node:crypto'
import { hmacSha256 } from '../../lib/hmac'
import { LINK_COOKIE_LIFETIME_MS } from './link-cookies'

/**
 * The reading token: proof that a request comes from the reader of one recorded visit of one link.
 * `<visitId>.<expiry ms>.<HMAC-SHA256 under the server key of visit, link and expiry>`. The viewer gets it in
 * the page (`data-visit`, tracked visits only) and sends it with its reading batches; the browser keeps the
 * same value in the `pdfshare_visit` cookie (HttpOnly, the link's path) so a download is tied to its visit.
 * A token of one link never works for another (the link id is signed), and nothing is stored to check it.
 */
export const VISIT_COOKIE = 'pdfshare_visit'
export const READING_TOKEN_LIFETIME_MS = LINK_COOKIE_LIFETIME_MS

const sign = (key: Uint8Array, visitId: string, linkId: string, expiry: number) =>
  hmacSha256(key, `reading\n${visitId}\n${linkId}\n${expiry}`)

export function readingToken(key: Uint8Array, visit: { id: string; linkId: string }, now: number): string {
  const expiry = now + READING_TOKEN_LIFETIME_MS
  return `${visit.id}.${expiry}.${sign(key, visit.id, visit.linkId, expiry).toString('base64url')}`
}

/** The visit id a token names, if it is valid, unexpired and made for `linkId`; otherwise undefined. */
export function visitOfToken(key: Uint8Array, token: unknown, linkId: string, now: number): string | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined
  const [visitId, expiryText, mac, extra] = token.split('.')
  if (extra !== undefined || !visitId || !expiryText || !mac || !/^\d{1,15}$/.test(expiryText)) return undefined
  const expiry = Number(expiryText)
  if (expiry <= now) return undefined
  const given = Buffer.from(mac, 'base64url')
  const expected = sign(key, visitId, linkId, expiry)
  return given.length === expected.length && timingSafeEqual(given, expected) ? visitId : undefined
}

/** The `pdfshare_visit` value of a Cookie header, if there is one. */
export function visitCookieOf(cookieHeader: string | null): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2)
    if (name === VISIT_COOKIE && value) return value
  }
  return undefined
}

export function visitCookieHeader(token: string, path: string, options: { secure: boolean }): string {
  return `${VISIT_COOKIE}=${token}; Max-Age=${READING_TOKEN_LIFETIME_MS / 1000}; Path=${path}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`
}
