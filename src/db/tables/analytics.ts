import { sql } from 'drizzle-orm'
import type { FileTables } from './files'
import type { LinkTables } from './links'
import type { Kit } from './kit'

/** Reading analytics (core/analytics): the visits the share page writes, and the time each page of a visit was on screen. */
export function analyticsTables(k: Kit, { files, links }: { files: FileTables['files']; links: LinkTables['links'] }) {
  /**
   * Reading analytics: one row a counted view (the honest rules of the view count), or a download without one, kept for
   * PDFSHARE_ANALYTICS_RETENTION. `visitor` is a keyed hash of address and User-Agent under the day's random
   * salt (meta `visitor_salt`, replaced every day and never kept): the same reader is one visitor within a day
   * and cannot be followed across days; the raw address and User-Agent are never stored.
   */
  const visits = k.table(
    'visits',
    {
      /**
       * The rowid, in the order visits are written (oldest first: pruning walks it from the start). No
       * AUTOINCREMENT and no index on `at`: every counted view writes a visit, and each of those costs a write
       * per visit (BENCHMARKS.md, Design measurements). On PostgreSQL an identity column, as every `seq` (./kit.ts).
       */
      seq: k.seq({ autoIncrement: false }),
      id: k.text('id').notNull().unique(),
      linkId: k
        .text('link_id')
        .notNull()
        .references(() => links.id, { onDelete: 'cascade' }),
      /** The link's file, so a file's numbers need no join. */
      fileId: k
        .text('file_id')
        .notNull()
        .references(() => files.id, { onDelete: 'cascade' }),
      at: k.millis('at').notNull(),
      visitor: k.text('visitor').notNull(),
      /** The host of the Referer, when the browser sent one; never the path or query. */
      referrerHost: k.text('referrer_host'),
      /** phone, tablet or desktop, from the User-Agent. */
      device: k.text('device').notNull(),
      /** False when the reader asked not to be tracked (Sec-GPC: 1 or DNT: 1): no reading events for this visit. */
      tracked: k.boolean('tracked').notNull(),
      /** True for a counted view of the page; false for a download that came without one (a direct /download link). */
      viewed: k.boolean('viewed').notNull(),
      downloaded: k.boolean('downloaded').notNull(),
      /** Milliseconds the viewer reported pages on screen, over all pages (the sum of visit_pages; a long-open tab's may pass 2^31). */
      readingMs: k.bigint('reading_ms').notNull().default(0),
      /** The address a reader gave at the link's gate (access email or verified-email); NULL for open links and erased readers. */
      reader: k.text('reader'),
    },
    (table) => [
      k.index('visits_file_at_idx').on(table.fileId, table.at),
      k.index('visits_link_at_idx').on(table.linkId, table.at),
      // Only visits of gated links are in it (whether an address is new to a link, for notifications): open links' views pay nothing.
      k.index('visits_link_reader_idx').on(table.linkId, table.reader).where(sql`${table.reader} IS NOT NULL`),
    ],
  )

  /** Time a page of a visit was on screen, as the viewer reported it (bounded, added up per page). */
  const visitPages = k.table(
    'visit_pages',
    {
      visitId: k
        .text('visit_id')
        .notNull()
        .references(() => visits.id, { onDelete: 'cascade' }),
      page: k.integer('page').notNull(),
      ms: k.bigint('ms').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.visitId, table.page] })],
  )

  return { visits, visitPages }
}
