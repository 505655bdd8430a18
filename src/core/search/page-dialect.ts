import type { SQL } from 'drizzle-orm'
import type { SearchQuery } from './query'

/** A file whose current PDF's text is read: its id and the blob it was read from. */
export type IndexedPdf = { id: string; blobKey: string }

/**
 * What differs between the two databases' page-text indexes (the tables of migrations 0031_search_index and
 * PostgreSQL's 0027_search_index): how a file's pages are written, which pages match a query, and a page's text.
 * Everything else (the state per file, ownership, grouping and paging) is one SQL for both (search-files.ts).
 */
export type PageDialect = {
  /**
   * The statements of one batch that replace the file's pages with `texts` (page n is texts[n - 1]; empty pages
   * are left out), each written only while the file still exists.
   */
  replacePages(file: IndexedPdf, texts: string[]): SQL[]
  /**
   * The pages of the owner's files that match, as `file_id, page, id, rank` (lower rank is better), from the
   * current PDFs only (their state row names the file's blob and says indexed); `within`: only these files.
   */
  matchingPages(ownerId: string, query: SearchQuery, within?: string[]): SQL
  /** The text of pages by id, as `id, body`. */
  bodies(ids: number[]): SQL
}
