import { and, gte, lt, type SQL, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { DEVICE_CLASSES, type DeviceClass } from '../../lib/device-class'
import type { AnalyticsDto } from '../../routes/analytics/model'
import { DAY_MS, dayRange } from './day-range'
import { type ScopeInput, visitScope } from './scope'

export const TOP_REFERRERS = 10

/** Milliseconds as seconds to a tenth. */
export const tenths = (ms: number) => Math.round(ms / 100) / 10

/**
 * A file's or a link's numbers over a range of UTC days: totals, views per day (every day, zeros included),
 * per-page reading time and reach, top referrers and devices. Each is one grouped query over the visits of
 * the range (indexed by file or link, then time).
 */
export async function getAnalytics(ctx: AppContext, input: ScopeInput & { from?: string; to?: string }): Promise<AnalyticsDto> {
  const { visitPages, visits } = ctx.db.tables
  const scope = await visitScope(ctx, input)
  const range = dayRange(ctx.now(), input)
  const inRange = and(scope, gte(visits.at, range.fromMs), lt(visits.at, range.toMs)) as SQL
  // The divisor is written into the SQL: a bound JS number may arrive as a REAL, and the division with it.
  const day = sql<number>`(${visits.at} / ${sql.raw(String(DAY_MS))})`

  const [perDay, referrers, devices, pages, reach, median] = await Promise.all([
    ctx.db.orm
      // `viewed` is a boolean on PostgreSQL, which has no sum of booleans: counted with a CASE on both.
      .select({
        day,
        views: sql<number>`sum(CASE WHEN ${visits.viewed} = TRUE THEN 1 ELSE 0 END)`,
        visitors: sql<number>`count(DISTINCT ${visits.visitor})`,
      })
      .from(visits)
      .where(inRange)
      .groupBy(day),
    ctx.db.orm
      .select({ host: sql<string>`coalesce(${visits.referrerHost}, '')`, views: sql<number>`count(*)` })
      .from(visits)
      .where(and(inRange, sql`${visits.viewed} = TRUE`))
      .groupBy(sql`1`)
      .orderBy(sql`2 DESC`, sql`1`)
      .limit(TOP_REFERRERS),
    ctx.db.orm.select({ device: visits.device, visits: sql<number>`count(*)` }).from(visits).where(inRange).groupBy(visits.device),
    ctx.db.orm
      .select({ page: visitPages.page, ms: sql<number>`sum(${visitPages.ms})` })
      .from(visitPages)
      .innerJoin(visits, sql`${visits.id} = ${visitPages.visitId}`)
      .where(inRange)
      .groupBy(visitPages.page),
    // How many visits got to each page as their furthest: reach of page N is the sum over N and beyond.
    ctx.db.orm.all<{ furthest: number; visits: number }>(sql`SELECT furthest, count(*) AS visits FROM (
        SELECT max(${visitPages.page}) AS furthest FROM ${visitPages} JOIN ${visits} ON ${visits.id} = ${visitPages.visitId}
        WHERE ${inRange} GROUP BY ${visitPages.visitId}
      ) AS per_visit GROUP BY furthest`),
    medianReadingMs(ctx, inRange),
  ])

  const byDay = new Map(perDay.map((row) => [Number(row.day), row]))
  const viewsPerDay = range.days.map((text, i) => {
    const row = byDay.get(range.fromMs / DAY_MS + i)
    return { day: text, views: Number(row?.views ?? 0), uniqueVisitors: Number(row?.visitors ?? 0) }
  })
  const furthest = Math.max(0, ...pages.map((row) => row.page), ...reach.map((row) => Number(row.furthest)))
  const msOf = new Map(pages.map((row) => [row.page, Number(row.ms)]))
  const endingAt = new Map(reach.map((row) => [Number(row.furthest), Number(row.visits)]))
  const pageRows: AnalyticsDto['pages'] = []
  let reached = 0
  for (let page = furthest; page >= 1; page--) {
    reached += endingAt.get(page) ?? 0
    pageRows.unshift({ page, seconds: tenths(msOf.get(page) ?? 0), visitors: reached })
  }
  const deviceCounts = Object.fromEntries(DEVICE_CLASSES.map((device) => [device, 0])) as Record<DeviceClass, number>
  for (const row of devices) if (row.device in deviceCounts) deviceCounts[row.device as DeviceClass] = Number(row.visits)

  return {
    from: range.from,
    to: range.to,
    totals: {
      views: viewsPerDay.reduce((sum, row) => sum + row.views, 0),
      uniqueVisitors: viewsPerDay.reduce((sum, row) => sum + row.uniqueVisitors, 0),
      downloads: await countDownloads(ctx, inRange),
      medianReadingSeconds: median === null ? null : tenths(median),
    },
    viewsPerDay,
    pages: pageRows,
    referrers: referrers.map((row) => ({ host: row.host, views: Number(row.views) })),
    devices: deviceCounts,
  }
}

async function countDownloads(ctx: AppContext, inRange: SQL): Promise<number> {
  const { visits } = ctx.db.tables
  const [row] = await ctx.db.orm
    .select({ n: sql<number>`count(*)` })
    .from(visits)
    .where(and(inRange, sql`${visits.downloaded} = TRUE`))
  return Number(row?.n ?? 0)
}

/** The median reading time of the tracked visits that reported any, read as the middle row(s) in order. */
async function medianReadingMs(ctx: AppContext, inRange: SQL): Promise<number | null> {
  const { visits } = ctx.db.tables
  const reported = and(inRange, sql`${visits.tracked} = TRUE AND ${visits.readingMs} > 0`)
  const [counted] = await ctx.db.orm.select({ n: sql<number>`count(*)` }).from(visits).where(reported)
  const n = Number(counted?.n ?? 0)
  if (n === 0) return null
  const middle = await ctx.db.orm
    .select({ ms: visits.readingMs })
    .from(visits)
    .where(reported)
    .orderBy(visits.readingMs)
    .limit(n % 2 === 1 ? 1 : 2)
    .offset(Math.floor((n - 1) / 2))
  return middle.reduce((sum, row) => sum + row.ms, 0) / middle.length
}
