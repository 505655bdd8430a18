import { timingSafeEqual } from 'node:crypto'
import { hmacSha256 } from '../../lib/hmac'
import type { LinkRow } from '../../db/tables'

/**
 * The two signed cookies of a share link, each scoped to the link's own path (`<basePath>/s/<slug>`), HttpOnly,
 * SameSite=Lax, Secure when the public URL is https, for 12 hours:
 *
 * - `pdfshare_unlock`: the reader gave the link's password. Signed over the link's id and its password hash,
 *   so changing or clearing the password ends every unlock at once.
 * - `pdfshare_grant`: the reader was served the page of a link with a view limit, so its bytes (/file,
 *   /download) stay readable for the cookie's life, also after the link is used up.
 *
 * The value is `<expiry ms>.<HMAC-SHA256 under the server key>`: nothing to store on the server, and a cookie
 * of one link never opens another (the link id is signed).
 */
export const UNLOCK_COOKIE = 'pdfshare_unlock'
export const GRANT_COOKIE = 'pdfshare_grant'
export const LINK_COOKIE_LIFETIME_MS = 12 * 60 * 60 * 1000

type SignedFor = Pick<LinkRow, 'id' | 'passwordHash'>

const payloadOf = (name: string, link: SignedFor, expiry: number) =>
  name === UNLOCK_COOKIE ? `unlock\n${link.id}\n${link.passwordHash ?? ''}\n${expiry}` : `grant\n${link.id}\n${expiry}`

const sign = (key: Uint8Array, payload: string) => hmacSha256(key, payload)

/** A fresh value for `name` (UNLOCK_COOKIE or GRANT_COOKIE) for `link`, valid from `now` for the cookie lifetime. */
export function linkCookieValue(key: Uint8Array, name: string, link: SignedFor, now: number): string {
  const expiry = now + LINK_COOKIE_LIFETIME_MS
  return `${expiry}.${sign(key, payloadOf(name, link, expiry)).toString('base64url')}`
}

/** Whether the request's Cookie header holds a valid, unexpired `name` cookie for `link`. */
export function hasLinkCookie(key: Uint8Array, name: string, link: SignedFor, cookieHeader: string | null, now: number): boolean {
  if (!cookieHeader) return false
  for (const part of cookieHeader.split(';')) {
    const [cookieName, value] = part.trim().split('=', 2)
    if (cookieName !== name || !value) continue
    const dot = value.indexOf('.')
    const expiry = Number(value.slice(0, dot))
    if (dot < 1 || !Number.isSafeInteger(expiry) || expiry <= now) continue
    const given = Buffer.from(value.slice(dot + 1), 'base64url')
    const expected = sign(key, payloadOf(name, link, expiry))
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true
  }
  return false
}

/** The Set-Cookie header for a cookie value made by `linkCookieValue`. */
export function linkCookieHeader(name: string, value: string, path: string, options: { secure: boolean }): string {
  return `${name}=${value}; Max-Age=${LINK_COOKIE_LIFETIME_MS / 1000}; Path=${path}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`
}
