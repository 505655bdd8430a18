import { and, desc, lt, type SQL } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { VisitRow } from '../../db/tables'
import { badRequest } from '../../errors'
import { type ScopeInput, visitScope } from './scope'

/**
 * A file's or a link's visits, newest first, by keyset: the cursor is the last row's sequence number, so
 * visits recorded while a client pages neither shift nor repeat entries.
 */
export async function listVisits(
  ctx: AppContext,
  input: ScopeInput & { limit: number; cursor?: string },
): Promise<{ rows: VisitRow[]; nextCursor: string | null }> {
  const { visits } = ctx.db.tables
  const scope = await visitScope(ctx, input)
  if (input.cursor !== undefined && !/^\d{1,15}$/.test(input.cursor)) throw badRequest('cursor must be a value of nextCursor')
  const rows = await ctx.db.orm
    .select()
    .from(visits)
    .where(input.cursor === undefined ? scope : and(scope, lt(visits.seq, Number(input.cursor))))
    .orderBy(desc(visits.seq))
    .limit(input.limit + 1)
  const page = rows.slice(0, input.limit)
  return { rows: page, nextCursor: rows.length > input.limit ? String(page.at(-1)!.seq) : null }
}

const CSV_PAGE = 500

/** Every visit of a file, newest first, read in bounded pages as the export is sent. The 404 comes before the first row. */
export async function visitsForExport(ctx: AppContext, input: ScopeInput): Promise<AsyncGenerator<VisitRow[]>> {
  const { visits } = ctx.db.tables
  const scope: SQL = await visitScope(ctx, input)
  return (async function* () {
    let before = Number.MAX_SAFE_INTEGER
    for (;;) {
      const rows = await ctx.db.orm
        .select()
        .from(visits)
        .where(and(scope, lt(visits.seq, before)))
        .orderBy(desc(visits.seq))
        .limit(CSV_PAGE)
      if (rows.length > 0) yield rows
      if (rows.length < CSV_PAGE) return
      before = rows.at(-1)!.seq
    }
  })()
}
