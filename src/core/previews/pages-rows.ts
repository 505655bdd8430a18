import type { AppContext } from '../context'
import type { Counted } from './renderer-pool'

/**
 * What is known of a blob's PDF besides its bytes, as its `pdf_pages` row keeps it: how many pages (null: PDFium
 * cannot open it, known to this process only) and, once read, every page's size (page-sizes.ts, encoded; `''` for
 * a PDF of no pages).
 */
export type PagesRow = { pages: number | null; sizes?: string }

/**
 * The `pdf_pages` rows, in memory in front of the database: the one cache of what a PDF's pages are, which the
 * page count, page 1's size and every page's size are all read from. A blob never changes (a replacement is a new
 * blob), so a kept row is never wrong, only incomplete: it fills in and never loses what it has (sizes once read
 * stay, as the SQL's ON CONFLICT keeps them), and a row kept without sizes is read again from the database when
 * sizes are asked for (another instance may have read them since). At most REMEMBERED_ROWS rows are kept; the
 * oldest goes first.
 */
export type PagesRows = {
  /** The row as this process keeps it, without asking the database. */
  known(blobKey: string): PagesRow | undefined
  /** The row kept, else (or, for `sizes`, when it has none) the database's, then kept; undefined when neither has one. */
  read(blobKey: string, need: 'pages' | 'sizes'): Promise<PagesRow | undefined>
  /** What a renderer answered of the PDF: kept here and in the database (a failure to write it is logged). */
  record(blobKey: string, counted: Counted): Promise<void>
  /** PDFium cannot open the PDF: nobody can tell its pages (kept here only). */
  unreadable(blobKey: string): void
}

/** Rows kept in memory: a few numbers and a line of sizes per PDF, at most this many PDFs. */
export const REMEMBERED_ROWS = 10_000

const RECORD_PAGES = `INSERT INTO pdf_pages (blob_key, pages, sizes) VALUES (?, ?, ?)
ON CONFLICT (blob_key) DO UPDATE SET sizes = excluded.sizes WHERE pdf_pages.sizes IS NULL AND excluded.sizes IS NOT NULL`
const PAGES = 'SELECT pages, sizes FROM pdf_pages WHERE blob_key = ?'

export function pagesRows(ctx: Pick<AppContext, 'db' | 'log'>): PagesRows {
  const rows = new Map<string, PagesRow>()
  const keep = (blobKey: string, row: PagesRow): PagesRow => {
    const before = rows.get(blobKey)
    const merged = { pages: row.pages ?? before?.pages ?? null, sizes: row.sizes ?? before?.sizes }
    if (!before && rows.size >= REMEMBERED_ROWS) rows.delete(rows.keys().next().value!)
    rows.set(blobKey, merged)
    return merged
  }
  return {
    known: (blobKey) => rows.get(blobKey),
    async read(blobKey, need) {
      const kept = rows.get(blobKey)
      if (kept && (need === 'pages' || kept.sizes !== undefined)) return kept
      const stored = await ctx.db.hot.get(PAGES, [blobKey])
      if (!stored) return kept
      const pages = Number(stored[0])
      // A PDF of no pages has no sizes to read: known, not missing.
      return keep(blobKey, { pages, sizes: stored[1] !== null ? String(stored[1]) : pages === 0 ? '' : undefined })
    },
    async record(blobKey, { pages, sizes }) {
      keep(blobKey, { pages, sizes })
      await ctx.db.hot.runGroups([[{ sql: RECORD_PAGES, args: [blobKey, pages, sizes ?? null] }]]).catch((error) => {
        ctx.log.error(`the page count of blob ${blobKey} could not be kept`, error)
      })
    },
    unreadable(blobKey) {
      if (!rows.has(blobKey)) keep(blobKey, { pages: null })
    },
  }
}
