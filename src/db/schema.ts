import { sql } from 'drizzle-orm'
import { blob, sqliteTable, text, integer, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core'

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
  /** Admins manage users and every token (docs/api.md, Admins): the first user, and those added with --admin. */
  isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
  /** When an admin disabled the account (it can neither sign in nor use its tokens); NULL: enabled. */
  disabledAt: integer('disabled_at'),
  /** The last successful sign-in (password), for the admin page; NULL: never. */
  lastSignInAt: integer('last_sign_in_at'),
  /** The TOTP secret (base32): pending until totpEnabledAt is set by a confirming code (docs/api.md, Two-factor sign-in). */
  totpSecret: text('totp_secret'),
  totpEnabledAt: integer('totp_enabled_at'),
  /** The 30-second step of the last code accepted, so a code is never accepted twice. */
  totpLastStep: integer('totp_last_step'),
  /**
   * An admin asked that the first single sign-on with this verified email link to the account (then cleared). It
   * links to an account in use only once its owner allowed it (ssoLinkAllowed); docs/sign-in.md, Who gets in.
   */
  ssoLinkEmail: text('sso_link_email'),
  /** The user allowed the link of ssoLinkEmail (set by the user only; any new ssoLinkEmail of an admin clears it). */
  ssoLinkAllowed: integer('sso_link_allowed', { mode: 'boolean' }).notNull().default(false),
  /** Where a password reset is mailed (lower-case): an address its user confirmed by mail, or a mailed invitation's; an admin may only remove it. */
  email: text('email').unique(),
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
    /** The token's scopes, space-separated in SCOPES order; NULL: every scope of its user (docs/api.md, Scopes). */
    scopes: text('scopes'),
    /**
     * A sign-in's session (password, passkey, single sign-on, authenticating proxy, reset): when that sign-in proved
     * who its user is. NULL: an API token (the CLI, POST /api/tokens), which never may change how its account signs in.
     */
    provedAt: integer('proved_at'),
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
    /** Name of the current PDF in the blob store; a replacement writes a new key (the old one becomes a version). */
    blobKey: text('blob_key').notNull(),
    filename: text('filename').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** Counted views through all of the file's links (each link counts its own in `links.views`). */
    views: integer('views').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** When the current PDF was stored: the upload, the last replacement, or the restore of a version. */
    uploadedAt: integer('uploaded_at').notNull(),
    /** The id the current PDF keeps as a version: it moves into `file_versions` when the file is replaced. */
    versionId: text('version_id').notNull(),
  },
  (table) => [index('files_owner_seq_idx').on(table.ownerId, table.seq)],
)

/**
 * The share links of a file. Every file has exactly one default link (`is_default`), made with the file: the
 * File resource's shareUrl, allowDownload and searchEngineVisible are its fields. More links may be added, each
 * with its own slug, switches, password, expiry and view limit. Deleting the file deletes them all.
 */
export const links = sqliteTable(
  'links',
  {
    /** Creation order: the order of a file's link list. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    /** The public share slug (`/s/<slug>`), 128 random bits, separate from the id. */
    slug: text('slug').notNull().unique(),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull(),
    label: text('label').notNull(),
    allowDownload: integer('allow_download', { mode: 'boolean' }).notNull(),
    searchEngineVisible: integer('search_engine_visible', { mode: 'boolean' }).notNull(),
    /** NULL: never expires. */
    expiresAt: integer('expires_at'),
    /** NULL: no view limit. */
    maxViews: integer('max_views'),
    /** argon2id (Bun.password) PHC string; NULL: no password. */
    passwordHash: text('password_hash'),
    disabled: integer('disabled', { mode: 'boolean' }).notNull(),
    /** Who may open it: `open`, `email` (the reader gives an address), `verified-email` (and proves it with a mailed code). */
    access: text('access').notNull().default('open'),
    /** Addresses and `@domain`s, one per line, lower-case: only these readers get in ("" lets every address in). */
    allowReaders: text('allow_readers').notNull().default(''),
    /** Addresses and `@domain`s, one per line, lower-case, kept out even when allowed. */
    denyReaders: text('deny_readers').notNull().default(''),
    /** The text a reader accepts before the page (an NDA, terms); NULL: none. */
    agreement: text('agreement'),
    /** Counts the changes of `agreement` (0: never set); an acceptance names the version it accepted. */
    agreementVersion: integer('agreement_version').notNull().default(0),
    /** Telling the owner of readers: `on` (at once, capped per hour), `hourly` or `daily` (a digest), `off`. */
    notify: text('notify').notNull().default('on'),
    /**
     * Origins (`https://site.example`, one per line, as URL.origin writes them) whose pages may frame the share
     * page: its `frame-ancestors`, and cross-site cookies for its readers (core/links/embed-origins.ts). "": none.
     */
    embedOrigins: text('embed_origins').notNull().default(''),
    /**
     * Drawn across every page a reader gets (its images, its downloads), with `{email}`, `{date}`, `{visit}` and `{label}`
     * filled in for that reader (core/links/watermark-template.ts); NULL: none.
     */
    watermark: text('watermark'),
    /** Counted views through this link. */
    views: integer('views').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [
    index('links_file_seq_idx').on(table.fileId, table.seq),
    uniqueIndex('links_one_default_idx').on(table.fileId).where(sql`${table.isDefault} = 1`),
  ],
)

/**
 * Earlier PDFs of a file, kept when it is replaced (newest first by `seq`, at most `config.maxVersions` a file).
 * They count toward the owner's storage quota and are covered by verify, backup and restore.
 */
export const fileVersions = sqliteTable(
  'file_versions',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    /** The `files.version_id` these bytes had while they were current. */
    id: text('id').notNull().unique(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    filename: text('filename').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** When these bytes were stored. */
    uploadedAt: integer('uploaded_at').notNull(),
    /** When they stopped being the current PDF. */
    replacedAt: integer('replaced_at').notNull(),
  },
  (table) => [index('file_versions_file_seq_idx').on(table.fileId, table.seq)],
)

/**
 * The number of pages of each stored PDF (current ones and kept versions) and their sizes, by blob key: what PDFium counted when
 * it first opened the PDF (for its link preview, or for the first reading batch of its readers). Known only once
 * counted; a PDF PDFium cannot open has none. Goes with its blob.
 */
export const pdfPages = sqliteTable('pdf_pages', {
  blobKey: text('blob_key').primaryKey(),
  pages: integer('pages').notNull(),
  /** Every page's size in points, as `WxH*count` runs (core/previews/page-sizes.ts); null until PDFium read them. */
  sizes: text('sizes'),
})

export type UserRow = typeof users.$inferSelect
export type TokenRow = typeof tokens.$inferSelect
export type FileRow = typeof files.$inferSelect
export type LinkRow = typeof links.$inferSelect
export type FileVersionRow = typeof fileVersions.$inferSelect
export type VisitRow = typeof visits.$inferSelect
export type WebhookRow = typeof webhooks.$inferSelect
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect

/**
 * Recent visits by visitors without our cookie, so a repeat visit within the window is not counted twice
 * (the 30-minute repeat window of the Views paragraph in docs/share-page.md), per link. `visitor` is an HMAC of IP and
 * User-Agent under the server secret, never the raw values. Rows older than the window are deleted as new
 * visits arrive.
 */
export const viewMarks = sqliteTable(
  'view_marks',
  {
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    seenAt: integer('seen_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.visitor] }), index('view_marks_seen_idx').on(table.seenAt)],
)

/**
 * Reading analytics: one row a counted view (the honest rules of the view count), or a download without one, kept for
 * PDFSHARE_ANALYTICS_RETENTION. `visitor` is a keyed hash of address and User-Agent under the day's random
 * salt (meta `visitor_salt`, replaced every day and never kept): the same reader is one visitor within a day
 * and cannot be followed across days; the raw address and User-Agent are never stored.
 */
export const visits = sqliteTable(
  'visits',
  {
    /**
     * The rowid, in the order visits are written (oldest first: pruning walks it from the start). No
     * AUTOINCREMENT and no index on `at`: every counted view writes a visit, and each of those costs a write
     * per visit (BENCHMARKS.md, Design measurements).
     */
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    /** The link's file, so a file's numbers need no join. */
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    at: integer('at').notNull(),
    visitor: text('visitor').notNull(),
    /** The host of the Referer, when the browser sent one; never the path or query. */
    referrerHost: text('referrer_host'),
    /** phone, tablet or desktop, from the User-Agent. */
    device: text('device').notNull(),
    /** False when the reader asked not to be tracked (Sec-GPC: 1 or DNT: 1): no reading events for this visit. */
    tracked: integer('tracked', { mode: 'boolean' }).notNull(),
    /** True for a counted view of the page; false for a download that came without one (a direct /download link). */
    viewed: integer('viewed', { mode: 'boolean' }).notNull(),
    downloaded: integer('downloaded', { mode: 'boolean' }).notNull(),
    /** Milliseconds the viewer reported pages on screen, over all pages (the sum of visit_pages). */
    readingMs: integer('reading_ms').notNull().default(0),
    /** The address a reader gave at the link's gate (access email or verified-email); NULL for open links and erased readers. */
    reader: text('reader'),
  },
  (table) => [
    index('visits_file_at_idx').on(table.fileId, table.at),
    index('visits_link_at_idx').on(table.linkId, table.at),
    // Only visits of gated links are in it (whether an address is new to a link, for notifications): open links' views pay nothing.
    index('visits_link_reader_idx').on(table.linkId, table.reader).where(sql`${table.reader} IS NOT NULL`),
  ],
)

/** Time a page of a visit was on screen, as the viewer reported it (bounded, added up per page). */
export const visitPages = sqliteTable(
  'visit_pages',
  {
    visitId: text('visit_id')
      .notNull()
      .references(() => visits.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    ms: integer('ms').notNull(),
  },
  (table) => [primaryKey({ columns: [table.visitId, table.page] })],
)

/** An owner's webhook: where to send which events, and the secret the deliveries are signed with. */
export const webhooks = sqliteTable(
  'webhooks',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** A JSON array of event types, e.g. ["file.uploaded","link.viewed"]. */
    events: text('events').notNull(),
    /** `whsec_<base64>` (Standard Webhooks); shown once, when the webhook is created. */
    secret: text('secret').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [index('webhooks_owner_idx').on(table.ownerId, table.seq)],
)

/**
 * The outbox: one row an event a webhook wants, written in the same transaction as the change it describes
 * (so a kill -9 loses none, and a change that did not commit sends none), then delivered at least once.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    /** The `webhook-id` header: the same on every attempt, so receivers can drop repeats. */
    id: text('id').notNull().unique(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** The JSON body, exactly as it is sent and signed. */
    payload: text('payload').notNull(),
    createdAt: integer('created_at').notNull(),
    /** pending, delivered or failed. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: integer('delivered_at'),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('webhook_deliveries_webhook_idx').on(table.webhookId, table.seq),
  ],
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

/**
 * The branding an admin set on the dashboard's Admin page (docs/operations.md, Branding): one row, id `instance`.
 * A NULL field is the setting's (PDFSHARE_BRAND_*); a name of "" is no name even where the setting names one. The
 * logo is kept here, re-encoded as a PNG of at most 720×144 (core/branding/logo-image.ts), so every instance of a
 * shared install serves the same one, and backups and `database migrate` carry it.
 */
export const branding = sqliteTable('branding', {
  id: text('id').primaryKey(),
  name: text('name'),
  /** `#rrggbb`. */
  accent: text('accent'),
  hidePdfshare: integer('hide_pdfshare', { mode: 'boolean' }),
  /** The PNG; NULL with the fields below: the setting's logo, if any. */
  logo: blob('logo', { mode: 'buffer' }),
  /** The first 16 hex digits of the PNG's SHA-256: its URL, so a new logo is a new address. */
  logoHash: text('logo_hash'),
  logoWidth: integer('logo_width'),
  logoHeight: integer('logo_height'),
  updatedAt: integer('updated_at').notNull(),
})

/**
 * Request counters shared by the instances of a scaled-out install (PostgreSQL): one row per limiter and key
 * (an HMAC of it: no address or name is stored), counting the requests of its current fixed window. The
 * embedded server counts in memory instead and leaves this table empty (src/core/limits/rate-limit.ts).
 */
export const rateCounters = sqliteTable('rate_counters', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
})

/**
 * Uploads streaming now, one row each, when several instances share the database: the per-user bound on
 * uploads at once holds across them. A row lives while its upload runs and is renewed meanwhile; one left
 * by a killed instance expires on its own (src/core/uploads/upload-gate.ts).
 */
export const uploadLeases = sqliteTable(
  'upload_leases',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [index('upload_leases_user_idx').on(table.userId, table.expiresAt)],
)

/**
 * Who did what on the server (docs/api.md, Audit log): sign-ins, tokens, users and quotas, deleted files, links and
 * webhooks. No foreign keys: an entry outlives the user, file or token it names. Never a secret in `detail`.
 */
export const auditEvents = sqliteTable(
  'audit_events',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    /** e.g. sign_in.failed, token.issued, link.changed (src/shared/audit-shapes.ts). */
    action: text('action').notNull(),
    /** The account the entry is about: its owner sees it. NULL: no account (a sign-in as a name that does not exist). */
    userId: text('user_id'),
    /** Who did it: a user's id, or NULL for the server's own command line. */
    actorId: text('actor_id'),
    /** The actor's name when it acted ("pdfshare CLI" for the command line), kept if the user is removed. */
    actorName: text('actor_name').notNull(),
    /** api or cli. */
    via: text('via').notNull(),
    /** The client's address (its /64 for IPv6) for requests through the API; NULL from the command line. */
    address: text('address'),
    /** The entry's facts as a JSON object: ids, names, labels, scopes, limits; never a password, code or token. */
    detail: text('detail').notNull(),
  },
  (table) => [index('audit_events_user_idx').on(table.userId, table.seq), index('audit_events_at_idx').on(table.at)],
)
export type AuditEventRow = typeof auditEvents.$inferSelect

/**
 * An admin's invitation to create an account (docs/api.md, Admins): a link with a secret, shown once, valid 7
 * days, used once. Only the SHA-256 of the secret is kept.
 */
export const invitations = sqliteTable('invitations', {
  id: text('id').primaryKey(),
  secretHash: text('secret_hash').notNull().unique(),
  /** The admin who made it; NULL once that user is removed. */
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
  /** Whether the new user is an admin, and their limits (NULL: unlimited). */
  admin: integer('admin', { mode: 'boolean' }).notNull(),
  maxBytes: integer('max_bytes'),
  maxFiles: integer('max_files'),
  /** When it was used, and the user it made; or when an admin revoked it. */
  usedAt: integer('used_at'),
  usedBy: text('used_by').references(() => users.id, { onDelete: 'set null' }),
  revokedAt: integer('revoked_at'),
  /**
   * The address it was mailed to. Not the account's email: the admin chose it (and gets the link too), so it could be
   * the admin's own mailbox; the person who joins names and confirms their own.
   */
  email: text('email'),
})

export type InvitationRow = typeof invitations.$inferSelect

/** A user's one-time recovery codes for two-factor sign-in: only their SHA-256 is kept (each has 80 random bits). */
export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
)

/** Who a single sign-on is: the provider's (issuer, subject) pair, bound to one user for good. */
export const ssoIdentities = sqliteTable(
  'sso_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] }), index('sso_identities_user_idx').on(table.userId)],
)

/**
 * A finished single sign-on waiting for the dashboard to collect its session: the provider's redirect ends on
 * a page whose address holds a one-time code (never the token), which the dashboard exchanges within a minute.
 */
export const ssoHandoffs = sqliteTable('sso_handoffs', {
  codeHash: text('code_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at').notNull(),
})

/** A passkey (WebAuthn credential) a user signs in with; docs/sign-in.md, Passkeys. */
export const passkeys = sqliteTable(
  'passkeys',
  {
    /** The credential id (base64url), as the authenticator gives it. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The signature counter; 0 for authenticators that keep none (most synced passkeys). */
    counter: integer('counter').notNull(),
    /** How the browser may reach it (usb, internal, hybrid…), comma-separated. */
    transports: text('transports'),
    name: text('name').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
  },
  (table) => [index('passkeys_user_idx').on(table.userId)],
)
export type PasskeyRow = typeof passkeys.$inferSelect

/** A WebAuthn challenge handed out and not yet answered: each is answered once, within 5 minutes. */
export const webauthnChallenges = sqliteTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  /** Whose passkey it is to register; NULL for a sign-in (the passkey says whose it is). */
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at').notNull(),
})

/**
 * Mail waiting to go out, and what became of it (docs/operations.md, Mail): written in the same batch as what it is
 * about (an invitation…), sent by the mail worker beside the server, retried with the webhooks' backoff for a day.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    /** The Message-ID's local part: the same on every attempt, so a receiving server can drop a repeat. */
    id: text('id').notNull().unique(),
    /** What it is (invitation, …), for the log. */
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    createdAt: integer('created_at').notNull(),
    /** pending, sent or failed. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** The SMTP server's last answer (its reply line, or why it could not be reached). */
    lastResponse: text('last_response'),
    sentAt: integer('sent_at'),
  },
  (table) => [index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt)],
)
export type MailRow = typeof mailOutbox.$inferSelect

/** A password reset mailed to a user: only the SHA-256 of its secret, valid 30 minutes, used once. */
export const passwordResets = sqliteTable('password_resets', {
  secretHash: text('secret_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
})

/**
 * A new email a user asked for (PUT /api/me/email), waiting for the link mailed to it: only the link's SHA-256,
 * valid EMAIL_CHANGE_HOURS, used once (the row is deleted). One per user: asking again replaces it.
 */
export const emailChanges = sqliteTable(
  'email_changes',
  {
    secretHash: text('secret_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address asked for, lower-case. */
    email: text('email').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [index('email_changes_user_idx').on(table.userId)],
)

/**
 * The one-time code mailed to a reader at a verified-email link's gate: a keyed hash of it (never the code),
 * valid 10 minutes, 5 tries. One per link and address: asking again replaces it.
 */
export const readerCodes = sqliteTable(
  'reader_codes',
  {
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** Wrong codes typed so far; the code is dead at 5. */
    tries: integer('tries').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.email] })],
)

/** Every text a link's agreement has had, by version, so an acceptance always shows what was accepted. */
export const agreementTexts = sqliteTable(
  'agreement_texts',
  {
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.version] })],
)

/** A reader accepted a link's agreement: when, which version of its text, and their address when the link asked for one. */
export const acceptances = sqliteTable(
  'acceptances',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** NULL: the link asked for no address, or the reader was erased. */
    reader: text('reader'),
    at: integer('at').notNull(),
  },
  (table) => [index('acceptances_link_seq_idx').on(table.linkId, table.seq), index('acceptances_file_seq_idx').on(table.fileId, table.seq)],
)
export type AcceptanceRow = typeof acceptances.$inferSelect

/** Where an owner is told of readers: an email address, or the URL of an ntfy, Gotify, Slack, Discord or Matrix room. */
export const notificationChannels = sqliteTable(
  'notification_channels',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** email, ntfy, gotify, slack, discord or matrix. */
    kind: text('kind').notNull(),
    /** The address, or the URL as pasted (it may hold a token: it never leaves the server whole). */
    target: text('target').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [index('notification_channels_owner_idx').on(table.ownerId, table.seq)],
)
export type NotificationChannelRow = typeof notificationChannels.$inferSelect

/**
 * What readers did that an owner may be told of (a new reader's counted view, a download, an acceptance),
 * written in the transaction of the view, download or acceptance itself. The notifier routes each one: at once
 * (`sent`), into a digest (`digest`, then `digested`), or to nobody (`done`).
 */
export const readerEvents = sqliteTable(
  'reader_events',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    /** view, download or acceptance. */
    kind: text('kind').notNull(),
    /** The reader's address at a link that asks for one. */
    reader: text('reader'),
    at: integer('at').notNull(),
    /** new, sent, digest, digested or done. */
    state: text('state').notNull(),
    /** The routing that took the event (a random value per attempt): what it queued goes with it, or nothing does. */
    routedBy: text('routed_by'),
  },
  (table) => [
    index('reader_events_state_idx').on(table.state, table.at),
    index('reader_events_link_idx').on(table.linkId, table.state, table.at),
  ],
)
export type ReaderEventRow = typeof readerEvents.$inferSelect

/** One message to one channel, sent by the notifier like a webhook delivery: retried with backoff, logged. */
export const notificationDeliveries = sqliteTable(
  'notification_deliveries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The page the message is about (the dashboard's file page), for the channels that show a link. */
    url: text('url').notNull(),
    createdAt: integer('created_at').notNull(),
    /** pending, delivered or failed. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: integer('delivered_at'),
  },
  (table) => [
    index('notification_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('notification_deliveries_owner_idx').on(table.ownerId, table.seq),
  ],
)
export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect

/**
 * Idempotency keys (docs/api.md, Retrying writes): a user's `Idempotency-Key` and, once the write it came with has
 * committed, that write's answer, kept PDFSHARE_IDEMPOTENCY_TTL. A key is first claimed (`done` false) by the
 * request that works on it, with a lease the request renews while it runs: a request killed mid-way leaves a
 * lease that ends on its own, and another request may then take the key over. The answer is written by the write's
 * own transaction, which replaces the claim with the `done` row; that row's insert fails, and the whole write with
 * it, when the claim is no longer the request's own (core/idempotency).
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** What the key was first sent with: "METHOD /path" (a different one is a 422). */
    request: text('request').notNull(),
    /** The random id of the request holding the claim (done: the one whose write committed). */
    lease: text('lease').notNull(),
    /** Until when the claim holds without renewal (ms). */
    leaseUntil: integer('lease_until').notNull(),
    done: integer('done', { mode: 'boolean' }).notNull(),
    /** Done: SHA-256 of the request's body as it was read (an upload's: the PDF's SHA-256 and the fields). */
    digest: text('digest'),
    /** Done: the answer's status, body (JSON text) and kept headers (a JSON object). */
    status: integer('status'),
    body: text('body'),
    headers: text('headers'),
    createdAt: integer('created_at').notNull(),
    /** When the key may be forgotten (created_at + PDFSHARE_IDEMPOTENCY_TTL); pruned hourly. */
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] }), index('idempotency_keys_expires_idx').on(table.expiresAt)],
)
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect
