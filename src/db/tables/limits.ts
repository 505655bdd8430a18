import type { Kit } from './kit'

/** Limits (core/limits) shared by the instances of a scaled-out install: request counters and upload slots. */
export function limitTables(k: Kit) {
  /**
   * Request counters shared by the instances of a scaled-out install (PostgreSQL): one row per limiter and key
   * (an HMAC of it: no address or name is stored), counting the requests of its current fixed window. The
   * embedded server counts in memory instead and leaves this table empty (src/core/limits/rate-limit.ts).
   */
  const rateCounters = k.table('rate_counters', {
    key: k.text('key').primaryKey(),
    windowStart: k.millis('window_start').notNull(),
    count: k.integer('count').notNull(),
  })

  /**
   * Uploads streaming now, one row each, when several instances share the database: the per-user bound on
   * uploads at once holds across them. A row lives while its upload runs and is renewed meanwhile; one left
   * by a killed instance expires on its own (src/core/uploads/upload-gate.ts).
   */
  const uploadLeases = k.table(
    'upload_leases',
    {
      id: k.text('id').primaryKey(),
      userId: k.text('user_id').notNull(),
      expiresAt: k.millis('expires_at').notNull(),
    },
    (table) => [k.index('upload_leases_user_idx').on(table.userId, table.expiresAt)],
  )

  return { rateCounters, uploadLeases }
}
