import type { LinkTables } from './links'
import type { Kit } from './kit'

/** The share page (core/share): the marks that keep a repeat visit from counting twice, and the codes mailed at a verified-email link's gate. */
export function shareTables(k: Kit, { links }: { links: LinkTables['links'] }) {
  /**
   * Recent visits by visitors without our cookie, so a repeat visit within the window is not counted twice
   * (the 30-minute repeat window of the Views paragraph in docs/share-page.md), per link. `visitor` is an HMAC of IP and
   * User-Agent under the server secret, never the raw values. Rows older than the window are deleted as new
   * visits arrive.
   */
  const viewMarks = k.table(
    'view_marks',
    {
      linkId: k
        .text('link_id')
        .notNull()
        .references(() => links.id, { onDelete: 'cascade' }),
      /**
       * Byte order on both databases: on PostgreSQL the column has the "C" collation, set by its hand-written
       * migration 0002 (drizzle-kit does not model collations), so one address's marks are a range of it.
       */
      visitor: k.text('visitor').notNull(),
      seenAt: k.millis('seen_at').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.linkId, table.visitor] }), k.index('view_marks_seen_idx').on(table.seenAt)],
  )

  /**
   * The one-time code mailed to a reader at a verified-email link's gate: a keyed hash of it (never the code),
   * valid 10 minutes, 5 tries. One per link and address: asking again replaces it.
   */
  const readerCodes = k.table(
    'reader_codes',
    {
      linkId: k
        .text('link_id')
        .notNull()
        .references(() => links.id, { onDelete: 'cascade' }),
      email: k.text('email').notNull(),
      codeHash: k.text('code_hash').notNull(),
      expiresAt: k.millis('expires_at').notNull(),
      /** Wrong codes typed so far; the code is dead at 5. */
      tries: k.integer('tries').notNull().default(0),
    },
    (table) => [k.primaryKey({ columns: [table.linkId, table.email] })],
  )

  return { viewMarks, readerCodes }
}
