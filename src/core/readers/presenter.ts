import type { AcceptanceRow } from '../../db/tables'
import type { AcceptanceDto } from '../../routes/readers/model'

const iso = (ms: number) => new Date(ms).toISOString()

export function toAcceptanceDto(row: AcceptanceRow): AcceptanceDto {
  return { id: row.id, linkId: row.linkId, version: row.version, reader: row.reader, acceptedAt: iso(row.at) }
}

export function toAgreementTextDto(row: { linkId: string; version: number; text: string; createdAt: number }) {
  return { linkId: row.linkId, version: row.version, text: row.text, createdAt: iso(row.createdAt) }
}
