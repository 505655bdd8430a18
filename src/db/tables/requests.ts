import type { Kit } from './kit'
import type { OwnerTables } from './owners'
import type { RoomTables } from './rooms'

/** File requests (core/requests): links through which outsiders send PDFs into an owner's account, and the codes mailed to senders. */
export function requestTables(k: Kit, { owners, rooms }: { owners: OwnerTables['owners']; rooms: RoomTables['rooms'] }) {
  /**
   * A file request: its page at `/u/<slug>` takes PDFs from whoever may send (its access, password and lists),
   * each an ordinary file of the owner (`files.source_request_id`), counted in the owner's quota.
   */
  const requests = k.table(
    'requests',
    {
      /** Creation order: the order of the owner's list. */
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      ownerId: k
        .text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      /** The page's address (`/u/<slug>`), 128 random bits, separate from the id. */
      slug: k.text('slug').notNull().unique(),
      title: k.text('title').notNull(),
      /** Plain text shown under the title, several lines allowed; "" when none. */
      message: k.text('message').notNull(),
      /** The name the page shows as who asks, when the owner chose to show one; NULL: none (nothing of the account shows). */
      ownerName: k.text('owner_name'),
      /** Files the request takes in all (every sender together); `received` counts them. */
      maxFiles: k.integer('max_files').notNull(),
      /** The largest PDF it takes, in bytes (at most the instance's PDFSHARE_MAX_FILE_SIZE). */
      maxFileSize: k.bigint('max_file_size').notNull(),
      /** NULL: never expires. */
      expiresAt: k.millis('expires_at'),
      /** argon2id PHC string; NULL: no password. */
      passwordHash: k.text('password_hash'),
      /** Who may send, as a link's readers: `open`, `email` (a sender gives an address), `verified-email` (and a mailed code). */
      access: k.text('access').notNull().default('open'),
      /** Addresses and `@domain`s, one per line, canonical: only these may send ("" lets every address send). */
      allowSenders: k.text('allow_senders').notNull().default(''),
      /** Addresses and `@domain`s, one per line, canonical, kept out even when allowed. */
      denySenders: k.text('deny_senders').notNull().default(''),
      disabled: k.boolean('disabled').notNull(),
      /** Telling the owner of what arrives: `on` (at once, capped per hour), `hourly` or `daily` (a digest), `off`. */
      notify: k.text('notify').notNull().default('on'),
      /** The owner's room each received file joins (last, at the top folder); NULL: none, or the room was deleted. */
      roomId: k.text('room_id').references(() => rooms.id, { onDelete: 'set null' }),
      /** Files received so far (a file deleted later still counts): the request is full at `max_files`. */
      received: k.integer('received').notNull().default(0),
      createdAt: k.millis('created_at').notNull(),
      updatedAt: k.millis('updated_at').notNull(),
    },
    (table) => [k.index('requests_owner_seq_idx').on(table.ownerId, table.seq)],
  )

  /**
   * The one-time code mailed to a sender at a verified-email request's gate, as the readers' codes of a link
   * (core/share/reader-gate.ts): a keyed hash of it, valid 10 minutes, 5 tries; one per request and address.
   */
  const senderCodes = k.table(
    'sender_codes',
    {
      requestId: k
        .text('request_id')
        .notNull()
        .references(() => requests.id, { onDelete: 'cascade' }),
      email: k.text('email').notNull(),
      codeHash: k.text('code_hash').notNull(),
      expiresAt: k.millis('expires_at').notNull(),
      tries: k.integer('tries').notNull().default(0),
    },
    (table) => [k.primaryKey({ columns: [table.requestId, table.email] })],
  )

  return { requests, senderCodes }
}
