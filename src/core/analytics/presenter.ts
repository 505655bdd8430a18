import type { VisitRow } from '../../db/tables'
import type { DeviceClass } from '../../lib/device-class'
import type { VisitDto } from '../../routes/analytics/model'
import { tenths } from './get-analytics'

/** The only way a visit leaves the server: the listed fields, never the visitor key. */
export function toVisitDto(row: VisitRow): VisitDto {
  return {
    id: row.id,
    linkId: row.linkId,
    at: new Date(row.at).toISOString(),
    referrerHost: row.referrerHost,
    device: row.device as DeviceClass,
    viewed: row.viewed,
    downloaded: row.downloaded,
    readingSeconds: tenths(row.readingMs),
    tracked: row.tracked,
    reader: row.reader,
  }
}

// New columns go at the end, so spreadsheets made from earlier exports keep their columns.
export const CSV_COLUMNS = [
  'id',
  'linkId',
  'at',
  'referrerHost',
  'device',
  'viewed',
  'downloaded',
  'readingSeconds',
  'tracked',
  'reader',
] as const

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a text starting with = + - @
 * gets a leading apostrophe, so a spreadsheet never runs it as a formula.
 */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return ''
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function csvLine(values: (string | number | boolean | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}

export const visitCsvLine = (visit: VisitDto) => csvLine(CSV_COLUMNS.map((column) => visit[column]))
