import { sql } from 'drizzle-orm'
import type { Config } from '../../config'
import type { RequestRow } from '../../db/tables'
import { badRequest } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { roomNotFound, roomOfOwner } from '../rooms/room-rows'
import { formatSize } from '../../shared/sizes'
import type { RequestInput } from './request-input'

type Policy = Pick<Config, 'maxFileSize' | 'smtpUrl'>

/**
 * What a request's fields must agree with besides their own rules (core/requests/rules.ts), on create and on
 * change, judged on the request as it will be: an expiry sent lies in the future; maxFileSize stays within the
 * server's cap; allow and deny mean something only when the request asks for an address (an `open` request with
 * a list would look guarded and be open to all), and codes need a mail server. The room is checkedRoom's.
 */
export function checkRequest(
  policy: Policy,
  now: number,
  sent: RequestInput,
  after: Pick<RequestRow, 'access' | 'allowSenders' | 'denySenders' | 'maxFileSize'>,
): void {
  if (sent.expiresAt !== undefined && sent.expiresAt !== null && sent.expiresAt <= now)
    throw badRequest('expiresAt must be in the future; to stop a request now, disable it')
  if (after.maxFileSize > policy.maxFileSize)
    throw badRequest(
      `maxFileSize must be at most ${policy.maxFileSize} bytes (${formatSize(policy.maxFileSize)}), the largest PDF this server takes`,
    )
  if (after.access === 'open' && (after.allowSenders !== '' || after.denySenders !== ''))
    throw badRequest(
      'allow and deny apply to requests that ask for an address: send access "email" or "verified-email" with them, or empty them (allow: [], deny: [])',
    )
  if (after.access === 'verified-email' && policy.smtpUrl === undefined)
    throw badRequest(
      'access "verified-email" mails each sender a code, and this server has no mail server: set PDFSHARE_SMTP_URL, or use access "email"',
    )
}

/** The room a request's files are to join: one of the owner's rooms (another user's is a 404, like none), or null. */
export async function checkedRoom(ctx: AppContext, ownerId: string, roomId: string | null): Promise<string | null> {
  if (roomId === null) return null
  if (!isWellFormedId(roomId)) throw roomNotFound()
  const [row] = await ctx.db.orm.all<{ one: number }>(sql`SELECT 1 AS one WHERE ${roomOfOwner(ctx.db.tables, ownerId, roomId)}`)
  if (!row) throw roomNotFound()
  return roomId
}
