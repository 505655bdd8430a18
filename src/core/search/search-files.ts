import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { badRequest } from '../../errors'
import { type NotIndexed, notIndexedOf } from './index-state'
import { pageDialectOf } from './dialects'
import { parseQuery } from './query'
import { type Snippet, snippetOf } from './snippets'

export type SearchInput = { ownerId: string; q: string; limit: number; cursor?: string }

/** One file that matched: its matching pages in order, and snippets of its best pages, best first. */
export type SearchHit = {
  file: { id: string; filename: string; title: string }
  pages: number[]
  snippets: (Snippet & { page: number })[]
}

export type SearchPage = { hits: SearchHit[]; nextCursor: string | null; notIndexed: NotIndexed[] }

/** Page numbers a hit lists, at most. */
const MAX_PAGES = 500
/** Pages of a hit that get a snippet: its best few. */
const SNIPPETS = 3
/** How deep a search may page: ranked results past this are not worth their query. */
const MAX_OFFSET = 10_000
/** Files listed as not searchable yet, on a search's first page. */
const NOT_INDEXED = 20

/**
 * Searches the text of the owner's files (their current PDFs): the query is parsed into terms (query.ts), the
 * matching pages found by the database's own index (page-dialect.ts), grouped by file and ranked by each file's
 * best page, paged by an offset (a ranking has no stable key: files indexed meanwhile may shift a page). The
 * owner is in every query (a team's token searches the team's files only); a file's text that is not searchable
 * (pending, failed) is listed in `notIndexed` on the first page, so a search never looks complete when it is not.
 */
export async function searchFiles(ctx: Pick<AppContext, 'db'>, input: SearchInput): Promise<SearchPage> {
  const query = parseQuery(input.q)
  const offset = input.cursor === undefined ? 0 : decodeCursor(input.cursor)
  const dialect = pageDialectOf(ctx.db)
  const files = await ctx.db.orm.all<{ file_id: string; best: number; filename: string; title: string }>(sql`
    WITH hits AS (${dialect.matchingPages(input.ownerId, query)})
    SELECT h.file_id AS file_id, min(h.rank) AS best, f.filename AS filename, f.title AS title
    FROM hits h JOIN files f ON f.id = h.file_id
    GROUP BY h.file_id, f.filename, f.title ORDER BY best, h.file_id LIMIT ${input.limit + 1} OFFSET ${offset}`)
  const more = files.length > input.limit
  const shown = files.slice(0, input.limit)
  const hits = shown.length === 0 ? [] : await hitsOf(ctx, input.ownerId, query, shown)
  return {
    hits,
    nextCursor: more ? encodeCursor(offset + input.limit) : null,
    notIndexed: offset === 0 ? await notIndexedOf(ctx, input.ownerId, NOT_INDEXED) : [],
  }
}

/** The pages and snippets of the files of one page of results, in their order. */
async function hitsOf(
  ctx: Pick<AppContext, 'db'>,
  ownerId: string,
  query: ReturnType<typeof parseQuery>,
  files: { file_id: string; filename: string; title: string }[],
): Promise<SearchHit[]> {
  const dialect = pageDialectOf(ctx.db)
  const pages = await ctx.db.orm.all<{ file_id: string; page: number; id: number; rank: number }>(sql`
    SELECT file_id, page, id, rank FROM (${dialect.matchingPages(
      ownerId,
      query,
      files.map((file) => file.file_id),
    )}) hits ORDER BY file_id, rank, page`)
  const byFile = Map.groupBy(pages, (page) => page.file_id)
  const best = files.flatMap((file) => (byFile.get(file.file_id) ?? []).slice(0, SNIPPETS))
  const bodies = new Map<number, string>()
  if (best.length > 0)
    for (const row of await ctx.db.orm.all<{ id: number; body: string }>(dialect.bodies(best.map((page) => Number(page.id)))))
      bodies.set(Number(row.id), row.body)
  return files.map((file) => {
    const matched = byFile.get(file.file_id) ?? []
    return {
      file: { id: file.file_id, filename: file.filename, title: file.title },
      pages: matched
        .map((page) => Number(page.page))
        .sort((a, b) => a - b)
        .slice(0, MAX_PAGES),
      snippets: matched.slice(0, SNIPPETS).map((page) => ({
        page: Number(page.page),
        ...snippetOf(bodies.get(Number(page.id)) ?? '', query.terms),
      })),
    }
  })
}

/** A cursor is the offset of the next page, opaque to clients. */
const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url')

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString())
  const offset = match ? Number(match[1]) : Number.NaN
  if (!Number.isSafeInteger(offset) || offset > MAX_OFFSET) throw badRequest('Invalid cursor: pass the nextCursor of a previous page')
  return offset
}
