import { badRequest } from '../../errors'

export const DAY_MS = 86_400_000
/** The longest range one request may ask for, and the default one. */
export const MAX_RANGE_DAYS = 366
export const DEFAULT_RANGE_DAYS = 30

export type DayRange = { from: string; to: string; fromMs: number; toMs: number; days: string[] }

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10)

function dayStart(text: string, name: 'from' | 'to'): number {
  const ms = Date.parse(`${text}T00:00:00Z`)
  // Date.parse rolls 2026-02-30 over to March: a day that does not exist is refused.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(ms) || dayText(ms) !== text)
    throw badRequest(`${name} must be a UTC day as YYYY-MM-DD`)
  return ms
}

/** UTC days `from` … `to` (both included), by default the 30 days up to today; `toMs` is the end of `to` (exclusive). */
export function dayRange(now: number, query: { from?: string; to?: string }): DayRange {
  const toStart = query.to === undefined ? now - (now % DAY_MS) : dayStart(query.to, 'to')
  const fromStart = query.from === undefined ? toStart - (DEFAULT_RANGE_DAYS - 1) * DAY_MS : dayStart(query.from, 'from')
  if (fromStart > toStart) throw badRequest('from must not be after to')
  const count = (toStart - fromStart) / DAY_MS + 1
  if (count > MAX_RANGE_DAYS) throw badRequest(`the range may span at most ${MAX_RANGE_DAYS} days`)
  const days = Array.from({ length: count }, (_, i) => dayText(fromStart + i * DAY_MS))
  return { from: days[0]!, to: days.at(-1)!, fromMs: fromStart, toMs: toStart + DAY_MS, days }
}
