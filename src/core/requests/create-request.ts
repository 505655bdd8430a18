import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { RequestRow } from '../../db/tables'
import { tooManyRequests } from '../../errors'
import { randomId } from '../../lib/ids'
import { REQUEST_LIMITS } from '../../shared/request-shapes'
import { type HeldKey, keptIn } from '../idempotency/keep'
import { hashPassword } from '../passwords/argon2'
import type { RequestInput } from './request-input'
import { checkedRoom, checkRequest } from './request-policy'

/**
 * A new file request of its owner, from checked input with a title: the defaults filled in (10 files, the
 * server's size cap, open, on), its fields checked together and its room the owner's (request-policy.ts), the password hashed, a fresh id
 * and a slug of 128 random bits. The INSERT itself holds the cap of requests a user may have, so parallel
 * creations cannot pass it; an Idempotency-Key's answer (`key`) is kept in the same transaction.
 */
export async function createRequest(
  ctx: AppContext,
  input: { ownerId: string; request: RequestInput & { title: string }; key?: HeldKey<RequestRow> },
): Promise<RequestRow> {
  const { requests } = ctx.db.tables
  const sent = input.request
  const now = ctx.now()
  const row: RequestRow = {
    seq: 0, // assigned by the database, never shown
    id: randomId(),
    ownerId: input.ownerId,
    slug: randomId(),
    title: sent.title,
    message: sent.message ?? '',
    ownerName: sent.ownerName ?? null,
    maxFiles: sent.maxFiles ?? REQUEST_LIMITS.defaultMaxFiles,
    maxFileSize: sent.maxFileSize ?? ctx.config.maxFileSize,
    expiresAt: sent.expiresAt ?? null,
    passwordHash: null,
    access: sent.access ?? 'open',
    allowSenders: sent.allowSenders ?? '',
    denySenders: sent.denySenders ?? '',
    disabled: sent.disabled ?? false,
    notify: sent.notify ?? 'on',
    roomId: null,
    received: 0,
    createdAt: now,
    updatedAt: now,
  }
  checkRequest(ctx.config, now, sent, row)
  row.roomId = await checkedRoom(ctx, row.ownerId, sent.roomId ?? null)
  if (sent.password) row.passwordHash = await hashPassword(sent.password)
  const [inserted] = await ctx.db.orm.batch([
    ctx.db.orm.all<{ seq: number }>(sql`
      INSERT INTO ${requests} (id, owner_id, slug, title, message, owner_name, max_files, max_file_size, expires_at, password_hash,
                               access, allow_senders, deny_senders, disabled, notify, room_id, received, created_at, updated_at)
      SELECT ${row.id}, ${row.ownerId}, ${row.slug}, ${row.title}, ${row.message}, ${row.ownerName}, ${row.maxFiles}, ${row.maxFileSize},
             ${row.expiresAt}, ${row.passwordHash}, ${row.access}, ${row.allowSenders}, ${row.denySenders}, ${row.disabled},
             ${row.notify}, ${row.roomId}, 0, ${now}, ${now}
      WHERE (SELECT count(*) FROM ${requests} WHERE owner_id = ${row.ownerId}) < ${REQUEST_LIMITS.perUser}
      RETURNING seq`),
    ...keptIn(ctx, input.key, row, sql`EXISTS (SELECT 1 FROM ${requests} WHERE id = ${row.id})`),
  ])
  if (inserted.length === 0) throw tooManyRequests(REQUEST_LIMITS.perUser)
  return { ...row, seq: Number(inserted[0]?.seq) }
}
