import type { Kit } from './kit'
import type { OwnerTables } from './owners'

/** Idempotency keys (core/idempotency). */
export function idempotencyTables(k: Kit, { owners }: { owners: OwnerTables['owners'] }) {
  /**
   * Idempotency keys (docs/api.md, Retrying writes): a user's `Idempotency-Key` and, once the write it came with has
   * committed, that write's answer, kept PDFSHARE_IDEMPOTENCY_TTL. A key is first claimed (`done` false) by the
   * request that works on it, with a lease the request renews while it runs: a request killed mid-way leaves a
   * lease that ends on its own, and another request may then take the key over. The answer is written by the write's
   * own transaction, which replaces the claim with the `done` row; that row's insert fails, and the whole write with
   * it, when the claim is no longer the request's own (core/idempotency).
   */
  const idempotencyKeys = k.table(
    'idempotency_keys',
    {
      /**
       * Whose keys: the user (a team token's keys are theirs too, set apart by a prefix of the key: http/idempotency.ts),
       * or the owner of a file request a sender uploads to, which may be a team. So it references owners, and the
       * keys go with the user or the team.
       */
      userId: k
        .text('user_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      key: k.text('key').notNull(),
      /** What the key was first sent with: "METHOD /path" (a different one is a 422). */
      request: k.text('request').notNull(),
      /** The random id of the request holding the claim (done: the one whose write committed). */
      lease: k.text('lease').notNull(),
      /** Until when the claim holds without renewal (ms). */
      leaseUntil: k.millis('lease_until').notNull(),
      done: k.boolean('done').notNull(),
      /** Done: SHA-256 of the request's body as it was read (an upload's: the PDF's SHA-256 and the fields). */
      digest: k.text('digest'),
      /** Done: the answer's status, body (JSON text) and kept headers (a JSON object). */
      status: k.integer('status'),
      body: k.text('body'),
      headers: k.text('headers'),
      createdAt: k.millis('created_at').notNull(),
      /** When the key may be forgotten (created_at + PDFSHARE_IDEMPOTENCY_TTL); pruned hourly. */
      expiresAt: k.millis('expires_at').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.userId, table.key] }), k.index('idempotency_keys_expires_idx').on(table.expiresAt)],
  )

  return { idempotencyKeys }
}
