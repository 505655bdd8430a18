import type { Kit } from './kit'
import type { OwnerTables } from './owners'

/** Files (core/files): the files, the earlier PDFs each keeps, and what PDFium counted of every stored PDF. */
export function fileTables(k: Kit, { owners }: { owners: OwnerTables['owners'] }) {
  const files = k.table(
    'files',
    {
      /** Insertion order: the key of the newest-first list and its cursor. AUTOINCREMENT never reuses a value. */
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      ownerId: k
        .text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      /** Name of the current PDF in the blob store; a replacement writes a new key (the old one becomes a version). */
      blobKey: k.text('blob_key').notNull(),
      filename: k.text('filename').notNull(),
      title: k.text('title').notNull(),
      description: k.text('description').notNull(),
      size: k.bigint('size').notNull(),
      sha256: k.text('sha256').notNull(),
      /** Counted views through all of the file's links (each link counts its own in `links.views`). */
      views: k.integer('views').notNull().default(0),
      createdAt: k.millis('created_at').notNull(),
      updatedAt: k.millis('updated_at').notNull(),
      /** When the current PDF was stored: the upload, the last replacement, or the restore of a version. */
      uploadedAt: k.millis('uploaded_at').notNull(),
      /** The id the current PDF keeps as a version: it moves into `file_versions` when the file is replaced. */
      versionId: k.text('version_id').notNull(),
      /**
       * The file request it arrived through (core/requests), and what its sender gave: their name, address and
       * note; all NULL for the owner's own upload. No reference: the file and where it came from outlive the request.
       */
      sourceRequestId: k.text('source_request_id'),
      sourceName: k.text('source_name'),
      sourceEmail: k.text('source_email'),
      sourceNote: k.text('source_note'),
    },
    (table) => [
      k.index('files_owner_seq_idx').on(table.ownerId, table.seq),
      k.index('files_source_request_idx').on(table.sourceRequestId, table.seq),
    ],
  )

  /**
   * Earlier PDFs of a file, kept when it is replaced (newest first by `seq`, at most `config.maxVersions` a file).
   * They count toward the owner's storage quota and are covered by verify, backup and restore.
   */
  const fileVersions = k.table(
    'file_versions',
    {
      seq: k.seq(),
      /** The `files.version_id` these bytes had while they were current. */
      id: k.text('id').notNull().unique(),
      fileId: k
        .text('file_id')
        .notNull()
        .references(() => files.id, { onDelete: 'cascade' }),
      blobKey: k.text('blob_key').notNull(),
      filename: k.text('filename').notNull(),
      size: k.bigint('size').notNull(),
      sha256: k.text('sha256').notNull(),
      /** When these bytes were stored. */
      uploadedAt: k.millis('uploaded_at').notNull(),
      /** When they stopped being the current PDF. */
      replacedAt: k.millis('replaced_at').notNull(),
    },
    (table) => [k.index('file_versions_file_seq_idx').on(table.fileId, table.seq)],
  )

  /**
   * The number of pages of each stored PDF (current ones and kept versions) and their sizes, by blob key: what PDFium counted when
   * it first opened the PDF (for its link preview, or for the first reading batch of its readers). Known only once
   * counted; a PDF PDFium cannot open has none. Goes with its blob.
   */
  const pdfPages = k.table('pdf_pages', {
    blobKey: k.text('blob_key').primaryKey(),
    pages: k.integer('pages').notNull(),
    /** Every page's size in points, as `WxH*count` runs (core/previews/page-sizes.ts); null until PDFium read them. */
    sizes: k.text('sizes'),
  })

  return { files, fileVersions, pdfPages }
}
export type FileTables = ReturnType<typeof fileTables>
