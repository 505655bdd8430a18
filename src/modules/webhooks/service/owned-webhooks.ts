import { and, asc, eq } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import type { Tables } from '../../../db/database'
import type { WebhookRow } from '../../../db/tables'
import { webhookNotFound } from '../../../errors'
import { isWellFormedId } from '../../../lib/ids'

export type OwnedWebhook = { ownerId: string; id: string }

/** The condition of a webhook of this owner: ownership is in every query, another user's id is simply not found. */
export const ownedWebhook = ({ webhooks }: Tables, key: OwnedWebhook) => and(eq(webhooks.id, key.id), eq(webhooks.ownerId, key.ownerId))

/** The owner's webhooks, oldest first. */
export async function listWebhooks(ctx: AppContext, input: { ownerId: string }): Promise<WebhookRow[]> {
  const { webhooks } = ctx.db.tables
  return ctx.db.orm.select().from(webhooks).where(eq(webhooks.ownerId, input.ownerId)).orderBy(asc(webhooks.seq))
}

/**
 * Deletes a webhook; its deliveries go with it (the foreign key cascades), so nothing pending is sent to it
 * any more. An attempt already in flight finishes, and its result finds no row to write to.
 */
export async function deleteWebhook(ctx: AppContext, input: OwnedWebhook): Promise<{ id: string; url: string }> {
  const { webhooks } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw webhookNotFound()
  const [deleted] = await ctx.db.orm
    .delete(webhooks)
    .where(ownedWebhook(ctx.db.tables, input))
    .returning({ id: webhooks.id, url: webhooks.url })
  if (!deleted) throw webhookNotFound()
  return deleted
}
