import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core'

// Timestamps are integer milliseconds since the epoch (UTC); the API formats them as ISO 8601.
// No column has a JS-side default: every value is set by the service that writes the row.

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdAt: integer('created_at').notNull(),
  /** Plan limits; NULL = unlimited. */
  maxBytes: integer('max_bytes'),
  maxFiles: integer('max_files'),
  /** argon2id (Bun.password) PHC string; NULL: no password, the user signs in with API tokens only. */
  passwordHash: text('password_hash'),
})

export const tokens = sqliteTable(
  'tokens',
  {
    /** The JWT's `jti`. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    createdAt: integer('created_at').notNull(),
    /** NULL for a token issued with --ttl never. */
    expiresAt: integer('expires_at'),
    revokedAt: integer('revoked_at'),
  },
  (table) => [index('tokens_user_idx').on(table.userId)],
)

export const files = sqliteTable(
  'files',
  {
    /** Insertion order: the key of the newest-first list and its cursor. AUTOINCREMENT never reuses a value. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The public share slug, separate from the id, 128 random bits. */
    slug: text('slug').notNull().unique(),
    /** Name of the PDF in the blob store; a replacement writes a new key. */
    blobKey: text('blob_key').notNull(),
    filename: text('filename').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    allowDownload: integer('allow_download', { mode: 'boolean' }).notNull(),
    searchEngineVisible: integer('search_engine_visible', { mode: 'boolean' }).notNull(),
    views: integer('views').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [index('files_owner_seq_idx').on(table.ownerId, table.seq)],
)

export type UserRow = typeof users.$inferSelect
export type TokenRow = typeof tokens.$inferSelect
export type FileRow = typeof files.$inferSelect

/**
 * Recent visits by visitors without our cookie, so a repeat visit within the window is not counted twice
 * (the 30-minute repeat window of the README's Views paragraph). `visitor` is an HMAC of IP and User-Agent under the server secret, never the raw values.
 * Rows older than the window are deleted as new visits arrive.
 */
export const viewMarks = sqliteTable(
  'view_marks',
  {
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    seenAt: integer('seen_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.fileId, table.visitor] }), index('view_marks_seen_idx').on(table.seenAt)],
)

/**
 * Facts about the installation itself, one row per key. `data_dir_id` pairs this database with its data dir
 * (the same id is in `<data>/data-dir-id`): a start with a database and a blob store that do not belong
 * together is refused (src/data-dir/pairing.ts).
 */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})
