import { and, asc, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { type HeldKey, keptFirst } from '../idempotency/keep'
import type { Tables } from '../../db/database'
import type { WebhookRow } from '../../db/tables'
import { webhookNotFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

export type OwnedWebhook = { ownerId: string; id: string }

/** What deleting a webhook answers: its id, and its URL for the audit log. */
export type DeletedWebhook = { id: string; url: string }

/** The condition of a webhook of this owner: ownership is in every query, another user's id is simply not found. */
export const ownedWebhook = ({ webhooks }: Tables, key: OwnedWebhook) => and(eq(webhooks.id, key.id), eq(webhooks.ownerId, key.ownerId))

/** The owner's webhooks, oldest first. */
export async function listWebhooks(ctx: AppContext, input: { ownerId: string }): Promise<WebhookRow[]> {
  const { webhooks } = ctx.db.tables
  return ctx.db.orm.select().from(webhooks).where(eq(webhooks.ownerId, input.ownerId)).orderBy(asc(webhooks.seq))
}

/**
 * Deletes a webhook; its deliveries go with it (the foreign key cascades), so nothing pending is sent to it
 * any more. An attempt already in flight finishes, and its result finds no row to write to. An Idempotency-Key's
 * answer (`key`) is kept in the delete's transaction, if the webhook was there.
 */
export async function deleteWebhook(ctx: AppContext, input: OwnedWebhook & { key?: HeldKey<DeletedWebhook> }): Promise<DeletedWebhook> {
  const { webhooks } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw webhookNotFound()
  const owned = ownedWebhook(ctx.db.tables, input)
  const [found] = await ctx.db.orm.select({ url: webhooks.url }).from(webhooks).where(owned)
  if (!found) throw webhookNotFound()
  const answer = { id: input.id, url: found.url }
  const results = await ctx.db.orm.batch(
    keptFirst(ctx, input.key, answer, sql`EXISTS (SELECT 1 FROM ${webhooks} WHERE ${owned})`, [
      ctx.db.orm.delete(webhooks).where(owned).returning({ id: webhooks.id }),
    ]),
  )
  if ((results.at(-1) as { id: string }[]).length === 0) throw webhookNotFound() // deleted meanwhile
  return answer
}
