import type { AuditEntryDto } from '../../routes/audit/model'
import type { AuditEntryRow } from './list-entries'

/** Who is reading the log: an admin sees every address; an owner those of what they did or what was tried on their account. */
export type AuditViewer = { userId: string; isAdmin: boolean }

/** The only way an audit-log row leaves the server. */
export function toAuditEntryDto(row: AuditEntryRow, viewer: AuditViewer): AuditEntryDto {
  const ownOrAnonymous = row.actorId === viewer.userId || (row.actorId === null && row.via === 'api')
  return {
    id: String(row.seq),
    at: new Date(row.at).toISOString(),
    action: row.action as AuditEntryDto['action'],
    user: row.userId === null ? null : { id: row.userId, name: row.userName },
    actor: { id: row.actorId, name: row.actorName, via: row.via as AuditEntryDto['actor']['via'] },
    address: viewer.isAdmin || ownOrAnonymous ? row.address : null,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  }
}
