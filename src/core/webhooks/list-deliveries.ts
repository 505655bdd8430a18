import { and, desc, eq, lt } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { WebhookDeliveryRow } from '../../db/tables'
import { badRequest, webhookNotFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import { type OwnedWebhook, ownedWebhook } from './owned-webhooks'

export type DeliveryPage = { rows: WebhookDeliveryRow[]; nextCursor: string | null }

/** A webhook's delivery log, newest first, by keyset on the outbox sequence (new events never shift a page). */
export async function listDeliveries(ctx: AppContext, input: OwnedWebhook & { limit: number; cursor?: string }): Promise<DeliveryPage> {
  const { webhookDeliveries, webhooks } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw webhookNotFound()
  const after = input.cursor === undefined ? undefined : Number(input.cursor)
  if (after !== undefined && !(Number.isSafeInteger(after) && after > 0))
    throw badRequest('cursor must be the nextCursor of a previous page')
  const [[owned], rows] = await ctx.db.orm.batch([
    ctx.db.orm.select({ id: webhooks.id }).from(webhooks).where(ownedWebhook(ctx.db.tables, input)),
    ctx.db.orm
      .select({ delivery: webhookDeliveries })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(and(ownedWebhook(ctx.db.tables, input), after === undefined ? undefined : lt(webhookDeliveries.seq, after)))
      .orderBy(desc(webhookDeliveries.seq))
      .limit(input.limit + 1),
  ])
  if (!owned) throw webhookNotFound()
  const page = rows.slice(0, input.limit).map((row) => row.delivery)
  return { rows: page, nextCursor: rows.length > input.limit ? String(page.at(-1)!.seq) : null }
}
