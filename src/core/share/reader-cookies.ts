import { type RequestCookies, setCookieHeader } from '../../lib/cookies'
import { isSignedValue, signedValue } from '../../lib/signed-value'
import type { LinkRow } from '../../db/tables'
import { REPEAT_WINDOW_MS } from './visit-marks'

/**
 * Everything a share link keeps in its readers' browsers: signed values (lib/signed-value.ts: nothing is stored
 * on the server, and a value of one link opens no other, the link id being signed), each in a cookie scoped to
 * the link's own path (`<basePath>/s/<slug>`), HttpOnly, SameSite=Lax, Secure when the public URL is https
 * (for a link other sites may frame: SameSite=None, Secure, Partitioned, lib/cookies.ts):
 *
 * - `pdfshare_unlock` (12 h): the reader gave the link's password. Signed over the link's id and its password
 *   hash, so changing or clearing the password ends every unlock at once.
 * - `pdfshare_grant` (12 h): the reader's visit of a link with a view limit was counted (or was a repeat of a
 *   counted one), so its bytes (/file, /download) stay readable for the cookie's life, also after the link is
 *   used up.
 * - `pdfshare_seen` (the 30-minute repeat window): the reader's visit was counted; a visit with it is a repeat.
 *   Signed, so a hand-made one neither skips the count nor passes for a counted visit.
 * - `pdfshare_visit` (12 h): the reading token of a recorded visit (`<visit id>.<signed value>`), which the
 *   page also carries (`data-visit`) for the viewer's reading batches; the cookie ties a download to its visit.
 * - `pdfshare_reader` (12 h): the address the reader gave at the link's gate, and whether a mailed code proved it
 *   (`<address, base64url>.<v|e>.<signed value>`). The address is in the value because every request judges it
 *   again against the link's lists as they are now: an address denied later is out at once.
 * - `pdfshare_agreed` (12 h): the reader accepted the link's agreement. Signed over its version, so new words
 *   are accepted again.
 */
export const READER_COOKIES = {
  unlock: { name: 'pdfshare_unlock', lifetimeMs: 12 * 60 * 60 * 1000 },
  grant: { name: 'pdfshare_grant', lifetimeMs: 12 * 60 * 60 * 1000 },
  seen: { name: 'pdfshare_seen', lifetimeMs: REPEAT_WINDOW_MS },
  visit: { name: 'pdfshare_visit', lifetimeMs: 12 * 60 * 60 * 1000 },
  reader: { name: 'pdfshare_reader', lifetimeMs: 12 * 60 * 60 * 1000 },
  agreed: { name: 'pdfshare_agreed', lifetimeMs: 12 * 60 * 60 * 1000 },
} as const
export type LinkCookie = Exclude<keyof typeof READER_COOKIES, 'visit' | 'reader'>

type SignedFor = Pick<LinkRow, 'id' | 'passwordHash' | 'agreementVersion'>

/** What a link cookie's value is signed over (the same fields, in the same order, as values made before). */
const fieldsOf = (kind: LinkCookie, link: SignedFor) => {
  if (kind === 'unlock') return ['unlock', link.id, link.passwordHash ?? '']
  if (kind === 'agreed') return ['agreed', link.id, String(link.agreementVersion)]
  return [kind, link.id]
}

/** A fresh value of the `kind` cookie for `link`, valid from `now` for that cookie's lifetime. */
export function linkCookieValue(key: Uint8Array, kind: LinkCookie, link: SignedFor, now: number): string {
  return signedValue(key, fieldsOf(kind, link), now + READER_COOKIES[kind].lifetimeMs)
}

/** The values a reader cookie (`kind`) has in the request. */
const valuesOf = (cookies: RequestCookies, kind: keyof typeof READER_COOKIES) => cookies.get(READER_COOKIES[kind].name) ?? []

/** Whether the request's cookies hold a valid, unexpired `kind` cookie for `link`. */
export function hasLinkCookie(key: Uint8Array, kind: LinkCookie, link: SignedFor, cookies: RequestCookies, now: number): boolean {
  return valuesOf(cookies, kind).some((value) => isSignedValue(key, fieldsOf(kind, link), value, now))
}

/** A reader at a link's gate: the address they gave, and whether they proved it with a mailed code. */
export type GateReader = { address: string; verified: boolean }

const readerFields = (linkId: string, reader: GateReader) => ['reader', linkId, reader.address, reader.verified ? 'v' : 'e']

/** A fresh `pdfshare_reader` value for the link. */
export function readerCookieValue(key: Uint8Array, link: Pick<LinkRow, 'id'>, reader: GateReader, now: number): string {
  const signed = signedValue(key, readerFields(link.id, reader), now + READER_COOKIES.reader.lifetimeMs)
  return `${Buffer.from(reader.address).toString('base64url')}.${reader.verified ? 'v' : 'e'}.${signed}`
}

/** The reader a valid, unexpired `pdfshare_reader` cookie of the link names (a verified one first), if any. */
export function readerOfCookies(key: Uint8Array, link: Pick<LinkRow, 'id'>, cookies: RequestCookies, now: number): GateReader | undefined {
  const readers: GateReader[] = []
  for (const value of valuesOf(cookies, 'reader')) {
    const [encoded, flag, ...rest] = value.split('.')
    if (!encoded || (flag !== 'v' && flag !== 'e') || encoded.length > 400) continue
    const reader = { address: Buffer.from(encoded, 'base64url').toString(), verified: flag === 'v' }
    if (isSignedValue(key, readerFields(link.id, reader), rest.join('.'), now)) readers.push(reader)
  }
  return readers.find((reader) => reader.verified) ?? readers[0]
}

/** The reading token of one recorded visit of one link: `<visitId>.<expiry>.<mac>`. */
export function readingToken(key: Uint8Array, visit: { id: string; linkId: string }, now: number): string {
  return `${visit.id}.${signedValue(key, ['reading', visit.id, visit.linkId], now + READER_COOKIES.visit.lifetimeMs)}`
}

/** The visit id a reading token names, if it is valid, unexpired and made for `linkId`; otherwise undefined. */
export function visitOfToken(key: Uint8Array, token: unknown, linkId: string, now: number): string | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined
  const dot = token.indexOf('.')
  const visitId = token.slice(0, dot)
  if (dot < 1) return undefined
  return isSignedValue(key, ['reading', visitId, linkId], token.slice(dot + 1), now) ? visitId : undefined
}

/** The request's `pdfshare_visit` value, if it has one. */
export const visitCookieOf = (cookies: RequestCookies): string | undefined => valuesOf(cookies, 'visit')[0]

/**
 * How a link's reader cookies are set: Secure when the public URL is https; `crossSite` for a link that other
 * sites may frame (its `embedOrigins`), where the install can make them work there (core/links/embed-origins.ts).
 */
export type ReaderCookieOptions = { secure: boolean; crossSite: boolean }

/** The Set-Cookie header of a reader cookie (`kind`) holding `value`, for the link at `path`. */
export function readerCookieHeader(kind: keyof typeof READER_COOKIES, value: string, path: string, options: ReaderCookieOptions): string {
  const { name, lifetimeMs } = READER_COOKIES[kind]
  return setCookieHeader(name, value, { path, lifetimeMs, ...options })
}
