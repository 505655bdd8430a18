import { timingSafeEqual } from 'node:crypto'
import { hmacSha256 } from '../../lib/hmac'
import type { LinkRow } from '../../db/tables'
import { REPEAT_WINDOW_MS } from './service/visit-marks'

/**
 * The signed cookies of a share link, each scoped to the link's own path (`<basePath>/s/<slug>`), HttpOnly,
 * SameSite=Lax, Secure when the public URL is https:
 *
 * - `pdfshare_unlock` (12 h): the reader gave the link's password. Signed over the link's id and its password
 *   hash, so changing or clearing the password ends every unlock at once.
 * - `pdfshare_grant` (12 h): the reader's visit of a link with a view limit was counted (or was a repeat of a
 *   counted one), so its bytes (/file, /download) stay readable for the cookie's life, also after the link is
 *   used up.
 * - `pdfshare_seen` (the 30-minute repeat window): the reader's visit was counted; a visit with it is a repeat.
 *   Signed, so a hand-made one neither skips the count nor passes for a counted visit.
 *
 * The value is `<expiry ms>.<HMAC-SHA256 under the server key>`: nothing to store on the server, and a cookie
 * of one link never opens another (the link id is signed).
 */
export const LINK_COOKIES = {
  unlock: { name: 'pdfshare_unlock', lifetimeMs: 12 * 60 * 60 * 1000 },
  grant: { name: 'pdfshare_grant', lifetimeMs: 12 * 60 * 60 * 1000 },
  seen: { name: 'pdfshare_seen', lifetimeMs: REPEAT_WINDOW_MS },
} as const
export type LinkCookie = keyof typeof LINK_COOKIES

export const LINK_COOKIE_LIFETIME_MS = LINK_COOKIES.grant.lifetimeMs

type SignedFor = Pick<LinkRow, 'id' | 'passwordHash'>

const payloadOf = (kind: LinkCookie, link: SignedFor, expiry: number) =>
  kind === 'unlock' ? `unlock\n${link.id}\n${link.passwordHash ?? ''}\n${expiry}` : `${kind}\n${link.id}\n${expiry}`

const sign = (key: Uint8Array, payload: string) => hmacSha256(key, payload)

/** A fresh value of the `kind` cookie for `link`, valid from `now` for that cookie's lifetime. */
export function linkCookieValue(key: Uint8Array, kind: LinkCookie, link: SignedFor, now: number): string {
  const expiry = now + LINK_COOKIES[kind].lifetimeMs
  return `${expiry}.${sign(key, payloadOf(kind, link, expiry)).toString('base64url')}`
}

/** Whether the request's Cookie header holds a valid, unexpired `kind` cookie for `link`. */
export function hasLinkCookie(key: Uint8Array, kind: LinkCookie, link: SignedFor, cookieHeader: string | null, now: number): boolean {
  if (!cookieHeader) return false
  const { name } = LINK_COOKIES[kind]
  for (const part of cookieHeader.split(';')) {
    const [cookieName, value] = part.trim().split('=', 2)
    if (cookieName !== name || !value) continue
    const dot = value.indexOf('.')
    const expiry = Number(value.slice(0, dot))
    if (dot < 1 || !Number.isSafeInteger(expiry) || expiry <= now) continue
    const given = Buffer.from(value.slice(dot + 1), 'base64url')
    const expected = sign(key, payloadOf(kind, link, expiry))
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true
  }
  return false
}

/** The Set-Cookie header for a `kind` cookie value made by `linkCookieValue`. */
export function linkCookieHeader(kind: LinkCookie, value: string, path: string, options: { secure: boolean }): string {
  const { name, lifetimeMs } = LINK_COOKIES[kind]
  return `${name}=${value}; Max-Age=${lifetimeMs / 1000}; Path=${path}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`
}
