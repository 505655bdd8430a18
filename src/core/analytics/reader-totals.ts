import { and, desc, eq, isNotNull, type SQL, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { ReaderTotalsDto } from '../../routes/analytics/model'
import { tenths } from './get-analytics'
import { type ScopeInput, visitScope } from './scope'

/** The most readers one answer lists (the most recent first). */
export const MAX_READERS = 1000

/**
 * Per reader of a file or a link (the addresses readers gave at its gate): visits, views, downloads, reading
 * time, the distinct pages they had on screen, their last visit. Two grouped queries over the scope's visits
 * (the pages come from visit_pages), newest readers first. Erased readers (reader NULL) are not listed.
 */
export async function readerTotals(ctx: AppContext, input: ScopeInput): Promise<ReaderTotalsDto[]> {
  const { visits, visitPages } = ctx.db.tables
  const scope = and(await visitScope(ctx, input), isNotNull(visits.reader)) as SQL
  const count = (condition: SQL) => sql<number>`sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`
  const last = sql<number>`max(${visits.at})`
  const [totals, pages] = await Promise.all([
    ctx.db.orm
      .select({
        reader: visits.reader,
        visits: sql<number>`count(*)`,
        views: count(sql`${visits.viewed}`),
        downloads: count(sql`${visits.downloaded}`),
        readingMs: sql<number>`sum(${visits.readingMs})`,
        last,
      })
      .from(visits)
      .where(scope)
      .groupBy(visits.reader)
      .orderBy(desc(last))
      .limit(MAX_READERS),
    ctx.db.orm
      .select({ reader: visits.reader, pages: sql<number>`count(DISTINCT ${visitPages.page})` })
      .from(visitPages)
      .innerJoin(visits, eq(visits.id, visitPages.visitId))
      .where(scope)
      .groupBy(visits.reader),
  ])
  const pagesOf = new Map(pages.map((row) => [row.reader, Number(row.pages)]))
  return totals.map((row) => ({
    reader: row.reader!,
    visits: Number(row.visits),
    views: Number(row.views),
    downloads: Number(row.downloads),
    pages: pagesOf.get(row.reader) ?? 0,
    readingSeconds: tenths(Number(row.readingMs)),
    lastVisitAt: new Date(Number(row.last)).toISOString(),
  }))
}
