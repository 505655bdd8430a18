import { timingSafeEqual } from 'node:crypto'
import { hmacSha256 } from './hmac'

/**
 * Values a client keeps and gives back (cookies, reading tokens) that nothing on the server needs to store:
 * `<expiry ms>.<HMAC-SHA256 under the server key of the fields and the expiry>`. The fields say what the value
 * is for and about (e.g. `['grant', linkId]`): a value made for one purpose or one link is valid for no other.
 */
const macOf = (key: Uint8Array, fields: readonly string[], expiry: number) => hmacSha256(key, [...fields, String(expiry)].join('\n'))

/** A fresh value for `fields`, valid until `expiry` (ms since the epoch). */
export function signedValue(key: Uint8Array, fields: readonly string[], expiry: number): string {
  return `${expiry}.${macOf(key, fields, expiry).toString('base64url')}`
}

/** Whether `value` was made by `signedValue` for exactly these `fields` and has not expired at `now`. */
export function isSignedValue(key: Uint8Array, fields: readonly string[], value: string, now: number): boolean {
  const dot = value.indexOf('.')
  if (dot < 1 || dot > 15) return false
  const expiryText = value.slice(0, dot)
  if (!/^\d+$/.test(expiryText)) return false
  const expiry = Number(expiryText)
  if (expiry <= now) return false
  const given = Buffer.from(value.slice(dot + 1), 'base64url')
  const expected = macOf(key, fields, expiry)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
