import type { FileTables } from './files'
import type { Kit } from './kit'

/** Share links (core/links): a file's links and the texts their agreements have had. */
export function linkTables(k: Kit, { files }: { files: FileTables['files'] }) {
  /**
   * The share links of a file. Every file has exactly one default link (`is_default`), made with the file: the
   * File resource's shareUrl, allowDownload and searchEngineVisible are its fields. More links may be added, each
   * with its own slug, switches, password, expiry and view limit. Deleting the file deletes them all.
   */
  const links = k.table(
    'links',
    {
      /** Creation order: the order of a file's link list. */
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      fileId: k
        .text('file_id')
        .notNull()
        .references(() => files.id, { onDelete: 'cascade' }),
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
      /** Counted views through this link. */
      views: k.integer('views').notNull().default(0),
      createdAt: k.millis('created_at').notNull(),
      updatedAt: k.millis('updated_at').notNull(),
    },
    (table) => [
      k.index('links_file_seq_idx').on(table.fileId, table.seq),
      k.uniqueIndex('links_one_default_idx').on(table.fileId).where(k.isTrue(table.isDefault)),
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
