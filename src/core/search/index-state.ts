import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { IndexedPdf } from './page-dialect'

/**
 * Where a file's text stands: `indexed` (its current PDF's text is searchable), `failed` (PDFium could not read
 * that PDF; `error` says why), `pending` (not read yet: a new upload, a replacement, or a file from before the
 * index). Pending is no row of search_files, or a row of another blob: a file never waits on a row someone
 * forgot to write, and every PDF of an install is found by the job's query (index-job.ts).
 */
type IndexState = 'pending' | 'indexed' | 'failed'

/** How a file's state is read beside its row (`files f` left-joined with `search_files s`). */
const STATE = sql`CASE WHEN s.file_id IS NULL OR s.blob_key <> f.blob_key THEN 'pending' ELSE s.state END`

/** The newest files whose current PDF has not been read, newest first (a new upload before the backlog). */
export async function pendingPdfs(ctx: Pick<AppContext, 'db'>, limit: number): Promise<IndexedPdf[]> {
  return ctx.db.orm.all<IndexedPdf>(sql`SELECT f.id AS "id", f.blob_key AS "blobKey" FROM files f
    LEFT JOIN search_files s ON s.file_id = f.id
    WHERE s.file_id IS NULL OR s.blob_key <> f.blob_key
    ORDER BY f.seq DESC LIMIT ${limit}`)
}

/** The statement that records what reading a file's PDF came to, written only while the file still has that PDF. */
export const recordState = (ctx: Pick<AppContext, 'db' | 'now'>, file: IndexedPdf, outcome: { pages: number } | { error: string }) => {
  const [state, error, pages] = 'error' in outcome ? ['failed', outcome.error, null] : ['indexed', null, outcome.pages]
  return sql`INSERT INTO search_files (file_id, blob_key, state, error, pages, updated_at)
    SELECT id, blob_key, ${state}, ${error}, ${pages}, ${ctx.now()} FROM files WHERE id = ${file.id} AND blob_key = ${file.blobKey}
    ON CONFLICT (file_id) DO UPDATE SET blob_key = excluded.blob_key, state = excluded.state, error = excluded.error,
      pages = excluded.pages, updated_at = excluded.updated_at`
}

export type NotIndexed = { id: string; filename: string; title: string; state: Exclude<IndexState, 'indexed'>; error: string | null }

/** The owner's newest files whose text cannot be searched (yet): what a search answers beside its hits. */
export async function notIndexedOf(ctx: Pick<AppContext, 'db'>, ownerId: string, limit: number): Promise<NotIndexed[]> {
  const rows = await ctx.db.orm.all<NotIndexed>(sql`SELECT f.id AS "id", f.filename AS "filename", f.title AS "title",
      ${STATE} AS "state", CASE WHEN s.blob_key = f.blob_key THEN s.error END AS "error"
    FROM files f LEFT JOIN search_files s ON s.file_id = f.id
    WHERE f.owner_id = ${ownerId} AND ${STATE} <> 'indexed'
    ORDER BY f.seq DESC LIMIT ${limit}`)
  return rows.map((row) => ({ ...row, error: row.error ?? null }))
}
