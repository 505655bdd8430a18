import { randomBytes } from 'node:crypto'

/**
 * A fresh random identifier: `bytes` bytes from the CSPRNG, base64url-encoded.
 * 16 bytes (128 bits) give 22 URL-safe characters; collisions are not a practical concern,
 * and every id column is UNIQUE besides.
 *
 * Never begins with `-`: one id in 64 would, and a command line then reads it as a flag (`pdfshare token
 * revoke -Tx…` → "unknown option"). Such draws are drawn again, so the ids stay uniform over the rest.
 */
export function randomId(bytes = 16): string {
  for (;;) {
    const id = randomBytes(bytes).toString('base64url')
    if (!id.startsWith('-')) return id
  }
}

const WELL_FORMED_ID = /^[A-Za-z0-9_-]{1,64}$/

/** Ids are opaque, but anything that could never have been issued is rejected before a query. */
export function isWellFormedId(value: string): boolean {
  return WELL_FORMED_ID.test(value)
}

/**
 * A random id that sorts by creation time: 12 hex digits of the time in ms, then `bytes` random bytes
 * (base64url). For rows written at high rates into a unique index (visits): new keys land at the end of the
 * index instead of on a random page each, so a commit of many rows writes a few pages, not one per row.
 */
export function timeOrderedId(now: number, bytes = 12): string {
  return `${Math.max(0, Math.floor(now)).toString(16).padStart(12, '0')}${randomBytes(bytes).toString('base64url')}`
}
