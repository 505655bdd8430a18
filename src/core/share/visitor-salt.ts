import { randomBytes } from 'node:crypto'
import type { AppContext } from '../context'
import { VISITOR_SALT_KEY } from '../../db/meta-keys'
import { addressGroup } from '../../lib/address-group'
import { hmacSha256Base64url } from '../../lib/hmac'

/**
 * The visitor key of reading analytics: HMAC-SHA256 under the day's salt of the reader's address group (an
 * IPv4 address, an IPv6 /64) and User-Agent. The salt is 32 random bytes kept in `meta` as
 * `visitor_salt` = `<UTC day>:<base64>` and replaced by a new random one when the day changes: the old salt
 * is gone, so a visitor cannot be followed from one day to the next, and nobody holding the database can test
 * a raw address against its rows (the server's signing key is not involved). Backups and `database migrate`
 * leave the salt behind: a restored or migrated install starts a new day's salt.
 */
const SALT_KEY = VISITOR_SALT_KEY
const READ_SALT = 'SELECT "value" FROM "meta" WHERE "key" = ?'
/** A new day's salt replaces any other day's; when two requests race at midnight the first one written wins. */
const REPLACE_SALT = `INSERT INTO "meta" ("key", "value") VALUES (?, ?)
  ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value" WHERE substr("meta"."value", 1, 11) <> substr(excluded."value", 1, 11)`

export type VisitorKeyOf = (input: { clientIp: string; userAgent: string | null; now: number }) => Promise<string>

/** The UTC day of a time, as YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export function visitorKeys(ctx: AppContext): VisitorKeyOf {
  let cached: { day: string; salt: Buffer } | undefined
  const storedSalt = async (day: string) => {
    const row = await ctx.db.hot.get(READ_SALT, [SALT_KEY])
    const value = row ? String(row[0]) : ''
    return value.startsWith(`${day}:`) ? Buffer.from(value.slice(day.length + 1), 'base64') : undefined
  }
  const saltOf = async (day: string): Promise<Buffer> => {
    if (cached?.day === day) return cached.salt
    let salt = await storedSalt(day)
    if (!salt) {
      await ctx.db.hot.runGroups([[{ sql: REPLACE_SALT, args: [SALT_KEY, `${day}:${randomBytes(32).toString('base64')}`] }]])
      salt = await storedSalt(day)
      if (!salt) throw new Error('the visitor salt could not be stored')
    }
    cached = { day, salt }
    return salt
  }
  return async ({ clientIp, userAgent, now }) => {
    const salt = await saltOf(utcDay(now))
    return hmacSha256Base64url(salt, `${addressGroup(clientIp)}\n${userAgent ?? ''}`)
  }
}
