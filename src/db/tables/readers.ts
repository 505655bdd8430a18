import type { FileTables } from './files'
import type { LinkTables } from './links'
import type { Kit } from './kit'

/** Readers (core/readers): the acceptances of links' agreements. */
export function readerTables(k: Kit, { files, links }: { files: FileTables['files']; links: LinkTables['links'] }) {
  /** A reader accepted a link's agreement: when, which version of its text, and their address when the link asked for one. */
  const acceptances = k.table(
    'acceptances',
    {
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      linkId: k
        .text('link_id')
        .notNull()
        .references(() => links.id, { onDelete: 'cascade' }),
      fileId: k
        .text('file_id')
        .notNull()
        .references(() => files.id, { onDelete: 'cascade' }),
      version: k.integer('version').notNull(),
      /** NULL: the link asked for no address, or the reader was erased. */
      reader: k.text('reader'),
      at: k.millis('at').notNull(),
    },
    (table) => [
      k.index('acceptances_link_seq_idx').on(table.linkId, table.seq),
      k.index('acceptances_file_seq_idx').on(table.fileId, table.seq),
    ],
  )

  return { acceptances }
}
