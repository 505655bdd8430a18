import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { type HeldKey, keptIn } from '../idempotency/keep'
import type { WebhookRow } from '../../db/tables'
import { badRequest, tooManyWebhooks } from '../../errors'
import { randomId } from '../../lib/ids'
import type { WebhookInput } from '../../routes/webhooks/input'
import { WEBHOOK_LIMITS } from '../../shared/webhook-shapes'
import { newWebhookSecret } from './signing'
import { literalTargetRefusal } from '../outbound/target-safety'

/**
 * A new webhook of the caller, with a fresh secret (the caller sees it once, in the answer). A URL whose host is
 * a literal loopback, private or link-local address is refused here (unless PDFSHARE_WEBHOOK_ALLOW_PRIVATE);
 * a name is judged at each delivery, by what it resolves to then. The per-user cap is a condition of the INSERT
 * itself, so concurrent creates cannot pass it together. An Idempotency-Key's answer (`key`, with the secret: a
 * retry must get the one secret the webhook has) is kept in the same transaction, if the webhook went in.
 */
export async function createWebhook(
  ctx: AppContext,
  input: { ownerId: string; webhook: WebhookInput; key?: HeldKey<WebhookRow> },
): Promise<WebhookRow> {
  const { webhooks } = ctx.db.tables
  const refusal = literalTargetRefusal(input.webhook.url, ctx.config.webhookAllowPrivate)
  if (refusal) throw badRequest(refusal)
  const row: WebhookRow = {
    seq: 0, // assigned by the database
    id: randomId(),
    ownerId: input.ownerId,
    url: input.webhook.url.href,
    events: JSON.stringify(input.webhook.events),
    secret: newWebhookSecret(),
    createdAt: ctx.now(),
  }
  const [inserted] = await ctx.db.orm.batch([
    ctx.db.orm.all<{ seq: number }>(sql`
    INSERT INTO ${webhooks} (id, owner_id, url, events, secret, created_at)
    SELECT ${row.id}, ${row.ownerId}, ${row.url}, ${row.events}, ${row.secret}, ${row.createdAt}
    WHERE (SELECT count(*) FROM ${webhooks} WHERE owner_id = ${row.ownerId}) < ${WEBHOOK_LIMITS.perUser}
    RETURNING seq`),
    ...keptIn(ctx, input.key, row, sql`EXISTS (SELECT 1 FROM ${webhooks} WHERE id = ${row.id})`),
  ])
  if (inserted.length === 0) throw tooManyWebhooks(WEBHOOK_LIMITS.perUser)
  return { ...row, seq: Number(inserted[0]!.seq) }
}
