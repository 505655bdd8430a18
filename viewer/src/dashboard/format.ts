/** 1.2 MB, 340 KB: binary units, written as the API's own messages write them. */
export { formatSize as formatBytes } from '../../../src/shared/sizes'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
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
