import type { RequestRow } from '../../db/tables'
import type { RequestDto } from '../../routes/requests/model'
import { listEntries } from '../links/readers'
import { requestState, requestUrlOf } from './request-state'

const iso = (ms: number) => new Date(ms).toISOString()

/** The only way a request row leaves the server: the listed fields, never the password hash, the slug only in its url. */
export function toRequestDto(row: RequestRow, publicUrl: string, now: number): RequestDto {
  return {
    id: row.id,
    url: requestUrlOf(publicUrl, row.slug),
    title: row.title,
    message: row.message,
    ownerName: row.ownerName,
    maxFiles: row.maxFiles,
    maxFileSize: row.maxFileSize,
    expiresAt: row.expiresAt === null ? null : iso(row.expiresAt),
    hasPassword: row.passwordHash !== null,
    access: row.access as RequestDto['access'],
    allow: listEntries(row.allowSenders),
    deny: listEntries(row.denySenders),
    roomId: row.roomId,
    disabled: row.disabled,
    notify: row.notify as RequestDto['notify'],
    received: row.received,
    state: requestState(row, now),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  }
}

/** A request as the audit log keeps it: its settings, never its slug or URL (it opens the page) nor its password. */
export function requestFacts(row: RequestRow): Record<string, string | number | boolean | null> {
  return {
    requestId: row.id,
    title: row.title,
    maxFiles: row.maxFiles,
    maxFileSize: row.maxFileSize,
    expiresAt: row.expiresAt === null ? null : iso(row.expiresAt),
    hasPassword: row.passwordHash !== null,
    access: row.access,
    allow: row.allowSenders.replace(/\n/g, ' '),
    deny: row.denySenders.replace(/\n/g, ' '),
    disabled: row.disabled,
    notify: row.notify,
  }
}
