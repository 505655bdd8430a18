import { type SQL, sql } from 'drizzle-orm'
import type { Tables } from '../../db/database'
import type { SqlStatement } from '../../db/hot-sql'
import { versionedCache } from '../../db/versioned-cache'
import { timeOrderedId } from '../../lib/ids'
import type { AppContext } from '../context'

/** What a reader did that an owner may be told of; `received`: a file arrived through one of the owner's requests. */
export type ReaderEventKind = 'view' | 'download' | 'acceptance' | 'received'

const INSERT = `INSERT INTO "reader_events" ("id", "owner_id", "link_id", "kind", "reader", "at", "state") VALUES (?, ?, ?, ?, ?, ?, 'new')`
// A view is news only from a new reader: an address (a link that asks for one) or a visitor key (today's) the
// link's visits have not had before. The visit of this view was written just before, in the same transaction.
// A visitor key is made under the day's salt, so only the day's visits can hold it: the (link, time) index finds
// them. An address is looked up in the partial (link, reader) index that only gated visits are in.
const INSERT_NEW_READER = `INSERT INTO "reader_events" ("id", "owner_id", "link_id", "kind", "reader", "at", "state")
  SELECT ?, ?, ?, 'view', ?, ?, 'new'
  WHERE NOT EXISTS (SELECT 1 FROM "visits" WHERE "link_id" = ? AND "id" <> ? AND "reader" = ?)`
const INSERT_NEW_VISITOR = `INSERT INTO "reader_events" ("id", "owner_id", "link_id", "kind", "reader", "at", "state")
  SELECT ?, ?, ?, 'view', NULL, ?, 'new'
  WHERE NOT EXISTS (SELECT 1 FROM "visits" WHERE "link_id" = ? AND "at" >= ? AND "id" <> ? AND "visitor" = ?)`

type EventOf = { ownerId: string; linkId: string; at: number }
const DAY_MS = 24 * 60 * 60 * 1000

/** The statements that record reader events, in the transaction of what they are about. */
export const readerEventStatements = {
  /** A counted view, if it is a new reader's (`visit`: the view's own visit row; null when visits are not kept). */
  view(event: EventOf & { reader: string | null; visit: { id: string; visitor: string } | null }): SqlStatement {
    const id = timeOrderedId(event.at)
    if (event.visit === null) return { sql: INSERT, args: [id, event.ownerId, event.linkId, 'view', event.reader, event.at] }
    return event.reader === null
      ? {
          sql: INSERT_NEW_VISITOR,
          args: [
            id,
            event.ownerId,
            event.linkId,
            event.at,
            event.linkId,
            event.at - (event.at % DAY_MS),
            event.visit.id,
            event.visit.visitor,
          ],
        }
      : {
          sql: INSERT_NEW_READER,
          args: [id, event.ownerId, event.linkId, event.reader, event.at, event.linkId, event.visit.id, event.reader],
        }
  },
  /**
   * A file received through a request (its default link `linkId`), only where `onlyIf` holds (the file went in):
   * the request's `notify` routes it, and its digest counts the request's files.
   */
  received(tables: Pick<Tables, 'readerEvents'>, event: EventOf & { sender: string | null; requestId: string }, onlyIf: SQL): SQL {
    return sql`INSERT INTO ${tables.readerEvents} (id, owner_id, link_id, kind, reader, request_id, at, state)
      SELECT ${timeOrderedId(event.at)}, ${event.ownerId}, ${event.linkId}, 'received', ${event.sender}, ${event.requestId}, ${event.at}, 'new'
      WHERE ${onlyIf}`
  },
  /** A download or an acceptance. `onlyIfPreviousChanged`: only if the statement before it recorded the download. */
  other(
    kind: Exclude<ReaderEventKind, 'view' | 'received'>,
    event: EventOf & { reader: string | null },
    onlyIfPreviousChanged = false,
  ): SqlStatement {
    return {
      sql: INSERT,
      args: [timeOrderedId(event.at), event.ownerId, event.linkId, kind, event.reader, event.at],
      onlyIfPreviousChanged,
    }
  },
}

const HAS_CHANNEL = 'SELECT 1 FROM "notification_channels" WHERE "owner_id" = ? LIMIT 1'

/**
 * Whether readers of this link make news: its owner has a channel and the link's notify is not off. For the
 * hot path of every counted view, like the webhooks' subscribers: the answer is kept in a versioned cache, so a
 * channel added or removed is seen by the next view.
 */
export function readerNews(ctx: AppContext): (ownerId: string, link: { notify: string }) => Promise<boolean> {
  const cache = versionedCache<boolean>(ctx.db.hot)
  return async (ownerId, link) =>
    link.notify !== 'off' && ((await cache(ownerId, async () => (await ctx.db.hot.get(HAS_CHANNEL, [ownerId])) !== undefined)) ?? false)
}
