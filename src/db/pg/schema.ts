import { sql } from 'drizzle-orm'
import { bigint, boolean, customType, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'

/**
 * The PostgreSQL twin of src/db/schema.ts: the same tables, column names, nullability, defaults, keys, uniques
 * and indexes (test/db/pg-schema.test.ts fails when the two drift apart); the column comments there say what each
 * column means. Only the types differ, each where SQLite's one INTEGER type has to become a choice:
 * - times are milliseconds since the epoch: `bigint` (they overflow a 32-bit integer), read as JS numbers
 *   (`mode: 'number'`, exact below 2^53, i.e. for the next 285,000 years);
 * - byte sizes and the quota limit in bytes are `bigint` too (a file or a quota may pass 2 GiB);
 * - SQLite stores booleans as 0/1 integers; here they are `boolean`;
 * - the `seq` keys are identity columns (SQLite's INTEGER PRIMARY KEY [AUTOINCREMENT]): `by default`, so a copy
 *   from an embedded install may keep its values. Like AUTOINCREMENT they never reuse a value; unlike SQLite's
 *   single writer, concurrent transactions may commit them out of order, so `seq` is a creation order, not a
 *   commit order;
 * - counts that stay small (views, attempts, pages, a status code, a file count) stay `integer`.
 */
const millis = (name: string) => bigint(name, { mode: 'number' })
const seqKey = () => bigint('seq', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity()

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdAt: millis('created_at').notNull(),
  maxBytes: bigint('max_bytes', { mode: 'number' }),
  maxFiles: integer('max_files'),
  passwordHash: text('password_hash'),
  isAdmin: boolean('is_admin').notNull().default(false),
  disabledAt: millis('disabled_at'),
  lastSignInAt: millis('last_sign_in_at'),
  totpSecret: text('totp_secret'),
  totpEnabledAt: millis('totp_enabled_at'),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  ssoLinkEmail: text('sso_link_email'),
  ssoLinkAllowed: boolean('sso_link_allowed').notNull().default(false),
  email: text('email').unique(),
})

export const tokens = pgTable(
  'tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    createdAt: millis('created_at').notNull(),
    expiresAt: millis('expires_at'),
    revokedAt: millis('revoked_at'),
    /** The token's scopes, space-separated in SCOPES order; NULL: every scope of its user (docs/api.md, Scopes). */
    scopes: text('scopes'),
    /**
     * A sign-in's session (password, passkey, single sign-on, authenticating proxy, reset): when that sign-in proved
     * who its user is. NULL: an API token (the CLI, POST /api/tokens), which never may change how its account signs in.
     */
    provedAt: millis('proved_at'),
  },
  (table) => [index('tokens_user_idx').on(table.userId)],
)

export const files = pgTable(
  'files',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    filename: text('filename').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    views: integer('views').notNull().default(0),
    createdAt: millis('created_at').notNull(),
    updatedAt: millis('updated_at').notNull(),
    uploadedAt: millis('uploaded_at').notNull(),
    versionId: text('version_id').notNull(),
  },
  (table) => [index('files_owner_seq_idx').on(table.ownerId, table.seq)],
)

export const links = pgTable(
  'links',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull().unique(),
    isDefault: boolean('is_default').notNull(),
    label: text('label').notNull(),
    allowDownload: boolean('allow_download').notNull(),
    searchEngineVisible: boolean('search_engine_visible').notNull(),
    expiresAt: millis('expires_at'),
    maxViews: integer('max_views'),
    passwordHash: text('password_hash'),
    disabled: boolean('disabled').notNull(),
    access: text('access').notNull().default('open'),
    allowReaders: text('allow_readers').notNull().default(''),
    denyReaders: text('deny_readers').notNull().default(''),
    agreement: text('agreement'),
    agreementVersion: integer('agreement_version').notNull().default(0),
    notify: text('notify').notNull().default('on'),
    embedOrigins: text('embed_origins').notNull().default(''),
    /**
     * Drawn across every page a reader gets (its images, its downloads), with `{email}`, `{date}`, `{visit}` and `{label}`
     * filled in for that reader (core/links/watermark-template.ts); NULL: none.
     */
    watermark: text('watermark'),
    views: integer('views').notNull().default(0),
    createdAt: millis('created_at').notNull(),
    updatedAt: millis('updated_at').notNull(),
  },
  (table) => [
    index('links_file_seq_idx').on(table.fileId, table.seq),
    // SQLite's `is_default = 1`; a boolean is its own condition here.
    uniqueIndex('links_one_default_idx').on(table.fileId).where(sql`${table.isDefault}`),
  ],
)

export const fileVersions = pgTable(
  'file_versions',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    filename: text('filename').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedAt: millis('uploaded_at').notNull(),
    replacedAt: millis('replaced_at').notNull(),
  },
  (table) => [index('file_versions_file_seq_idx').on(table.fileId, table.seq)],
)

// `visitor` has the "C" collation (byte order, as in SQLite), set by the hand-written migration 0002: drizzle-kit
// does not model collations. The view counter reads one address's marks as a range of it.
export const viewMarks = pgTable(
  'view_marks',
  {
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    seenAt: millis('seen_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.visitor] }), index('view_marks_seen_idx').on(table.seenAt)],
)

export const visits = pgTable(
  'visits',
  {
    // SQLite's rowid without AUTOINCREMENT (no sequence table to write on every view); an identity column costs
    // nothing extra here, so the same kind of key as the other tables.
    seq: seqKey(),
    id: text('id').notNull().unique(),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    at: millis('at').notNull(),
    visitor: text('visitor').notNull(),
    referrerHost: text('referrer_host'),
    device: text('device').notNull(),
    tracked: boolean('tracked').notNull(),
    viewed: boolean('viewed').notNull(),
    downloaded: boolean('downloaded').notNull(),
    // A sum over pages and over repeated reports: bigint, so a long-open tab cannot overflow it.
    readingMs: bigint('reading_ms', { mode: 'number' }).notNull().default(0),
    reader: text('reader'),
  },
  (table) => [
    index('visits_file_at_idx').on(table.fileId, table.at),
    index('visits_link_at_idx').on(table.linkId, table.at),
    index('visits_link_reader_idx').on(table.linkId, table.reader).where(sql`${table.reader} IS NOT NULL`),
  ],
)

export const visitPages = pgTable(
  'visit_pages',
  {
    visitId: text('visit_id')
      .notNull()
      .references(() => visits.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    ms: bigint('ms', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.visitId, table.page] })],
)

export const webhooks = pgTable(
  'webhooks',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    // Kept as the same JSON text as in SQLite (not jsonb): it is only ever read whole and parsed by the service.
    events: text('events').notNull(),
    secret: text('secret').notNull(),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [index('webhooks_owner_idx').on(table.ownerId, table.seq)],
)

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    // Text, not jsonb: it is the exact signed body, and jsonb would reorder keys and drop whitespace.
    payload: text('payload').notNull(),
    createdAt: millis('created_at').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: millis('next_attempt_at').notNull(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: millis('delivered_at'),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('webhook_deliveries_webhook_idx').on(table.webhookId, table.seq),
  ],
)

export const pdfPages = pgTable('pdf_pages', {
  blobKey: text('blob_key').primaryKey(),
  pages: integer('pages').notNull(),
  /** Every page's size in points, as `WxH*count` runs (core/previews/page-sizes.ts); null until PDFium read them. */
  sizes: text('sizes'),
})

export const meta = pgTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

/** SQLite's BLOB: bytes, read as a Buffer like drizzle's SQLite `blob({ mode: 'buffer' })`. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
})

export const branding = pgTable('branding', {
  id: text('id').primaryKey(),
  name: text('name'),
  accent: text('accent'),
  hidePdfshare: boolean('hide_pdfshare'),
  logo: bytea('logo'),
  logoHash: text('logo_hash'),
  logoWidth: integer('logo_width'),
  logoHeight: integer('logo_height'),
  updatedAt: millis('updated_at').notNull(),
})

export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  windowStart: millis('window_start').notNull(),
  count: integer('count').notNull(),
})

export const uploadLeases = pgTable(
  'upload_leases',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    expiresAt: millis('expires_at').notNull(),
  },
  (table) => [index('upload_leases_user_idx').on(table.userId, table.expiresAt)],
)

export const auditEvents = pgTable(
  'audit_events',
  {
    seq: seqKey(),
    at: millis('at').notNull(),
    action: text('action').notNull(),
    userId: text('user_id'),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    via: text('via').notNull(),
    address: text('address'),
    detail: text('detail').notNull(),
  },
  (table) => [index('audit_events_user_idx').on(table.userId, table.seq), index('audit_events_at_idx').on(table.at)],
)

export const invitations = pgTable('invitations', {
  id: text('id').primaryKey(),
  secretHash: text('secret_hash').notNull().unique(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: millis('created_at').notNull(),
  expiresAt: millis('expires_at').notNull(),
  admin: boolean('admin').notNull(),
  maxBytes: bigint('max_bytes', { mode: 'number' }),
  maxFiles: integer('max_files'),
  usedAt: millis('used_at'),
  usedBy: text('used_by').references(() => users.id, { onDelete: 'set null' }),
  revokedAt: millis('revoked_at'),
  email: text('email'),
})

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: millis('used_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
)

export const ssoIdentities = pgTable(
  'sso_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] }), index('sso_identities_user_idx').on(table.userId)],
)

export const ssoHandoffs = pgTable('sso_handoffs', {
  codeHash: text('code_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: millis('expires_at').notNull(),
})

export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: text('transports'),
    name: text('name').notNull(),
    createdAt: millis('created_at').notNull(),
    lastUsedAt: millis('last_used_at'),
  },
  (table) => [index('passkeys_user_idx').on(table.userId)],
)

export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: millis('expires_at').notNull(),
})

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    createdAt: millis('created_at').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: millis('next_attempt_at').notNull(),
    lastResponse: text('last_response'),
    sentAt: millis('sent_at'),
  },
  (table) => [index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt)],
)

export const passwordResets = pgTable('password_resets', {
  secretHash: text('secret_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: millis('expires_at').notNull(),
  usedAt: millis('used_at'),
})

export const emailChanges = pgTable(
  'email_changes',
  {
    secretHash: text('secret_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    expiresAt: millis('expires_at').notNull(),
  },
  (table) => [index('email_changes_user_idx').on(table.userId)],
)

export const readerCodes = pgTable(
  'reader_codes',
  {
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: millis('expires_at').notNull(),
    tries: integer('tries').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.email] })],
)

export const agreementTexts = pgTable(
  'agreement_texts',
  {
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.version] })],
)

export const acceptances = pgTable(
  'acceptances',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    reader: text('reader'),
    at: millis('at').notNull(),
  },
  (table) => [index('acceptances_link_seq_idx').on(table.linkId, table.seq), index('acceptances_file_seq_idx').on(table.fileId, table.seq)],
)

export const notificationChannels = pgTable(
  'notification_channels',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    target: text('target').notNull(),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [index('notification_channels_owner_idx').on(table.ownerId, table.seq)],
)

export const readerEvents = pgTable(
  'reader_events',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    reader: text('reader'),
    at: millis('at').notNull(),
    state: text('state').notNull(),
    routedBy: text('routed_by'),
  },
  (table) => [
    index('reader_events_state_idx').on(table.state, table.at),
    index('reader_events_link_idx').on(table.linkId, table.state, table.at),
  ],
)

export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    seq: seqKey(),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    url: text('url').notNull(),
    createdAt: millis('created_at').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: millis('next_attempt_at').notNull(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: millis('delivered_at'),
  },
  (table) => [
    index('notification_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('notification_deliveries_owner_idx').on(table.ownerId, table.seq),
  ],
)

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    request: text('request').notNull(),
    lease: text('lease').notNull(),
    leaseUntil: millis('lease_until').notNull(),
    done: boolean('done').notNull(),
    digest: text('digest'),
    status: integer('status'),
    body: text('body'),
    headers: text('headers'),
    createdAt: millis('created_at').notNull(),
    expiresAt: millis('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] }), index('idempotency_keys_expires_idx').on(table.expiresAt)],
)
