/**
 * Reading analytics as the dashboard reads them: GET /api/files/:id/analytics, GET /api/links/:linkId/analytics
 * and the visits lists. Bundled into the browser: plain types and constants only. A type test
 * (test/types/shared-shapes.test.ts) keeps them equal to the types of modules/analytics' schemas.
 */

/** The periods the dashboard offers, in UTC days ending today; the API takes at most 366. */
export const ANALYTICS_RANGES = [7, 30, 90] as const

/** phone, tablet or desktop, from the reader's User-Agent. */
export type DeviceClass = 'phone' | 'tablet' | 'desktop'

export type AnalyticsDto = {
  /** First and last UTC day of the period, YYYY-MM-DD. */
  from: string
  to: string
  totals: {
    views: number
    /** Distinct visitor keys per day, summed over the days (a visitor key lives one day). */
    uniqueVisitors: number
    downloads: number
    /** Over tracked visits with some reading time; null when there are none. */
    medianReadingSeconds: number | null
  }
  /** Every day of the period, zeros included. */
  viewsPerDay: { day: string; views: number; uniqueVisitors: number }[]
  /** Per page: seconds on screen over all visits, and visitors = how many visits reached this page or a later one. */
  pages: { page: number; seconds: number; visitors: number }[]
  /** Top 10; "" = direct (no Referer, or the same site). */
  referrers: { host: string; views: number }[]
  devices: Record<DeviceClass, number>
}

/** One entry of the visits lists (newest first) and one row of visits.csv. Never the visitor key. */
export type VisitDto = {
  id: string
  linkId: string
  at: string
  referrerHost: string | null
  device: DeviceClass
  viewed: boolean
  downloaded: boolean
  readingSeconds: number
  tracked: boolean
}

/** GET …/visits?limit=&cursor= */
export type VisitsPage = { data: VisitDto[]; nextCursor: string | null }
