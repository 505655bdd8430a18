import type { LinkTables } from './links'
import type { Kit } from './kit'
import type { OwnerTables } from './owners'

/** Notifications (core/notifications): where owners are told of readers, what readers did, and the messages sent. */
export function notificationTables(k: Kit, { links, owners }: { links: LinkTables['links']; owners: OwnerTables['owners'] }) {
  /** Where an owner is told of readers: an email address, or the URL of an ntfy, Gotify, Slack, Discord or Matrix room. */
  const notificationChannels = k.table(
    'notification_channels',
    {
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      ownerId: k
        .text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      /** email, ntfy, gotify, slack, discord or matrix. */
      kind: k.text('kind').notNull(),
      /** The address, or the URL as pasted (it may hold a token: it never leaves the server whole). */
      target: k.text('target').notNull(),
      createdAt: k.millis('created_at').notNull(),
    },
    (table) => [k.index('notification_channels_owner_idx').on(table.ownerId, table.seq)],
  )

  /**
   * What readers did that an owner may be told of (a new reader's counted view, a download, an acceptance), and
   * the files that arrived through a request, written in the transaction of the view, download, acceptance or
   * arrival itself. The notifier routes each one: at once
   * (`sent`), into a digest (`digest`, then `digested`), or to nobody (`done`).
   */
  const readerEvents = k.table(
    'reader_events',
    {
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      ownerId: k
        .text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      linkId: k
        .text('link_id')
        .notNull()
        .references(() => links.id, { onDelete: 'cascade' }),
      /** view, download, acceptance or received (a file arrived through a request; `link_id` is its default link). */
      kind: k.text('kind').notNull(),
      /** The reader's address at a link that asks for one; the sender's address (else name) of a received file. */
      reader: k.text('reader'),
      /**
       * The request a received file came through: its notify decides, and its digest counts the files. No
       * reference (SQLite cannot add one to a table that exists): an event of a deleted request is dropped when routed.
       */
      requestId: k.text('request_id'),
      at: k.millis('at').notNull(),
      /** new, sent, digest, digested or done. */
      state: k.text('state').notNull(),
      /** The routing that took the event (a random value per attempt): what it queued goes with it, or nothing does. */
      routedBy: k.text('routed_by'),
    },
    (table) => [
      k.index('reader_events_state_idx').on(table.state, table.at),
      k.index('reader_events_link_idx').on(table.linkId, table.state, table.at),
    ],
  )

  /** One message to one channel, sent by the notifier like a webhook delivery: retried with backoff, logged. */
  const notificationDeliveries = k.table(
    'notification_deliveries',
    {
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      ownerId: k
        .text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      channelId: k
        .text('channel_id')
        .notNull()
        .references(() => notificationChannels.id, { onDelete: 'cascade' }),
      title: k.text('title').notNull(),
      body: k.text('body').notNull(),
      /** The page the message is about (the dashboard's file page), for the channels that show a link. */
      url: k.text('url').notNull(),
      createdAt: k.millis('created_at').notNull(),
      /** pending, delivered or failed. */
      status: k.text('status').notNull(),
      attempts: k.integer('attempts').notNull().default(0),
      nextAttemptAt: k.millis('next_attempt_at').notNull(),
      lastStatus: k.integer('last_status'),
      lastError: k.text('last_error'),
      deliveredAt: k.millis('delivered_at'),
    },
    (table) => [
      k.index('notification_deliveries_due_idx').on(table.status, table.nextAttemptAt),
      k.index('notification_deliveries_owner_idx').on(table.ownerId, table.seq),
    ],
  )

  return { notificationChannels, readerEvents, notificationDeliveries }
}
