import { hasMessage, language, t } from './i18n'

/** 1.2 MB, 340 KB: binary units, written as the API's own messages write them. */
export { formatSize as formatBytes } from '../../../src/shared/sizes'

// Dates, times and numbers in the page's language (docs/languages.md, The dashboard), in the reader's own time zone.
const dateFormat = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' })
export const formatDate = (iso: string) => dateFormat.format(new Date(iso))

/** An ISO instant as a `datetime-local` value ("2026-12-01T09:30") in the reader's own time zone. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso)
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

/** A `datetime-local` value (the reader's time zone) as the ISO 8601 UTC instant the API takes; null when empty or not a date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** n of a unit in the page's language ("3 min", "3 Min."); outside a page (a test of this alone) in English's symbols. */
function unit(unitName: 'seconds' | 'minutes' | 'hours', n: number): string {
  const key = `duration.${unitName}` as const
  return hasMessage(key) ? t(key, { [unitName]: n }) : `${n} ${{ seconds: 's', minutes: 'min', hours: 'h' }[unitName]}`
}

/** Reading time: "2.5 s" (tenths below 10 s, as the API measures), "45 s", "3 min 20 s", "2 h 5 min", in the page's language. */
export function formatDuration(seconds: number): string {
  if (seconds < 9.95) return unit('seconds', Number(seconds.toFixed(1)))
  const whole = Math.round(seconds)
  if (whole < 60) return unit('seconds', whole)
  if (whole < 3600) {
    const minutes = unit('minutes', Math.floor(whole / 60))
    return whole % 60 ? `${minutes} ${unit('seconds', whole % 60)}` : minutes
  }
  const hours = unit('hours', Math.floor(whole / 3600))
  const minutes = Math.floor((whole % 3600) / 60)
  return minutes ? `${hours} ${unit('minutes', minutes)}` : hours
}

/** A UTC day (YYYY-MM-DD) shown short in the reader's language, e.g. "3 Dec". It is a calendar day: no time zone shift. */
const dayFormat = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' })
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`))

/** The last `days` UTC days up to today, as the analytics API's ?from=&to=. */
export function lastDays(days: number, now = Date.now()): { from: string; to: string } {
  const to = new Date(now).toISOString().slice(0, 10)
  const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10)
  return { from, to }
}
