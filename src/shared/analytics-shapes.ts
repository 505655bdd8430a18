/**
 * What the dashboard offers for reading analytics. Bundled into the browser: constants only. The API's
 * analytics types are those of routes/analytics/model.ts.
 */

/** The periods the dashboard offers, in UTC days ending today; the API takes at most 366. */
export const ANALYTICS_RANGES = [7, 30, 90] as const
