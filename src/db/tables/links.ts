import { sql } from 'drizzle-orm'
import type { FileTables } from './files'
import type { Kit } from './kit'
import type { RoomTables } from './rooms'

/** Share links (core/links): a file's or a room's links and the texts their agreements have had. */
export function linkTables(k: Kit, { files, rooms }: { files: FileTables['files']; rooms: RoomTables['rooms'] }) {
  /**
   * The share links of a file, or of a room (docs/rooms.md): each link has exactly one of `file_id` and `room_id`.
   * Every file and every room has exactly one default link (`is_default`), made with it: the File and Room
   * resources' shareUrl (and a file's allowDownload and searchEngineVisible) are its fields. More links may be
   * added, each with its own slug, switches, password, expiry and view limit. Deleting the file or the room
   * deletes them all.
   */
  const links = k.table(
    'links',
    {
      /** Creation order: the order of a file's link list. */
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      /** The file this link shares; NULL for a room's link. */
      fileId: k.text('file_id').references(() => files.id, { onDelete: 'cascade' }),
      /** The room this link shares; NULL for a file's link. */
      roomId: k.text('room_id').references(() => rooms.id, { onDelete: 'cascade' }),
      /** The public share slug (`/s/<slug>`), 128 random bits, separate from the id. */
      slug: k.text('slug').notNull().unique(),
      isDefault: k.boolean('is_default').notNull(),
      label: k.text('label').notNull(),
      allowDownload: k.boolean('allow_download').notNull(),
      searchEngineVisible: k.boolean('search_engine_visible').notNull(),
      /** NULL: never expires. */
      expiresAt: k.millis('expires_at'),
      /** NULL: no view limit. */
      maxViews: k.integer('max_views'),
      /** argon2id (Bun.password) PHC string; NULL: no password. */
      passwordHash: k.text('password_hash'),
      disabled: k.boolean('disabled').notNull(),
      /** Who may open it: `open`, `email` (the reader gives an address), `verified-email` (and proves it with a mailed code). */
      access: k.text('access').notNull().default('open'),
      /** Addresses and `@domain`s, one per line, lower-case: only these readers get in ("" lets every address in). */
      allowReaders: k.text('allow_readers').notNull().default(''),
      /** Addresses and `@domain`s, one per line, lower-case, kept out even when allowed. */
      denyReaders: k.text('deny_readers').notNull().default(''),
      /** The text a reader accepts before the page (an NDA, terms); NULL: none. */
      agreement: k.text('agreement'),
      /** Counts the changes of `agreement` (0: never set); an acceptance names the version it accepted. */
      agreementVersion: k.integer('agreement_version').notNull().default(0),
      /** Telling the owner of readers: `on` (at once, capped per hour), `hourly` or `daily` (a digest), `off`. */
      notify: k.text('notify').notNull().default('on'),
      /**
       * Origins (`https://site.example`, one per line, as URL.origin writes them) whose pages may frame the share
       * page: its `frame-ancestors`, and cross-site cookies for its readers (core/links/embed-origins.ts). "": none.
       */
      embedOrigins: k.text('embed_origins').notNull().default(''),
      /**
       * Drawn across every page a reader gets (its images, its downloads), with `{email}`, `{date}`, `{visit}` and `{label}`
       * filled in for that reader (core/links/watermark-template.ts); NULL: none.
       */
      watermark: k.text('watermark'),
      /** The language every reader's page of this link is in (one of shared/languages.ts); NULL: the reader's own (docs/languages.md). */
      language: k.text('language'),
      /** Counted views through this link. */
      views: k.integer('views').notNull().default(0),
      createdAt: k.millis('created_at').notNull(),
      updatedAt: k.millis('updated_at').notNull(),
    },
    (table) => [
      k.index('links_file_seq_idx').on(table.fileId, table.seq),
      k.uniqueIndex('links_one_default_idx').on(table.fileId).where(k.isTrue(table.isDefault)),
      k.index('links_room_seq_idx').on(table.roomId, table.seq),
      k.uniqueIndex('links_one_room_default_idx').on(table.roomId).where(k.isTrue(table.isDefault)),
      // A link shares a file or a room, never both, never neither.
      // (Unqualified: drizzle-kit would name the table SQLite's rebuild renames.)
      k.check('links_file_or_room', sql.raw('("file_id" IS NULL) <> ("room_id" IS NULL)')),
    ],
  )

  /** Every text a link's agreement has had, by version, so an acceptance always shows what was accepted. */
  const agreementTexts = k.table(
    'agreement_texts',
    {
      linkId: k
        .text('link_id')
        .notNull()
        .references(() => links.id, { onDelete: 'cascade' }),
      version: k.integer('version').notNull(),
      text: k.text('text').notNull(),
      createdAt: k.millis('created_at').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.linkId, table.version] })],
  )

  return { links, agreementTexts }
}
export type LinkTables = ReturnType<typeof linkTables>
