import { eventPattern } from './outbox'
import { versionedCache } from '../../db/versioned-cache'
import type { AppContext } from '../context'
import type { WebhookEvent } from '../../shared/webhook-shapes'

const WANTS = `SELECT 1 FROM "webhooks" WHERE "owner_id" = ? AND "events" LIKE ? LIMIT 1`

export type WantsEvent = (ownerId: string, event: WebhookEvent) => Promise<boolean>

/**
 * Whether an owner has a webhook for an event, for the hot path that would otherwise write an outbox
 * statement for every counted view (its SQL and its JSON were a quarter of what analytics add to a view,
 * measured). Kept in a versioned cache, so a webhook created or deleted (a commit of another connection) is
 * seen by the next view. A view whose request began before its owner's first webhook committed is not
 * announced: the webhook did not exist when it was counted.
 */
export function eventSubscribers(ctx: AppContext): WantsEvent {
  const cache = versionedCache<boolean>(ctx.db.hot)
  return async (ownerId, event) =>
    (await cache(`${ownerId}\n${event}`, async () => (await ctx.db.hot.get(WANTS, [ownerId, eventPattern(event)])) !== undefined)) ?? false
}
