import type { Static } from 'elysia'
import type { AuditFilter } from '../../core/audit/list-entries'
import type { AuditQuery } from './model'

/** The filters of an audit-log query (checked against AuditQuery by its route), as the service takes them. */
export function auditFilterFrom(query: Static<typeof AuditQuery>): Omit<AuditFilter, 'userId'> {
  return {
    limit: query.limit ?? 50,
    cursor: query.cursor === undefined ? undefined : Number(query.cursor),
    action: query.action,
    byAnother: query.by === 'admin',
    since: query.since === undefined ? undefined : Date.parse(query.since),
    until: query.until === undefined ? undefined : Date.parse(query.until),
  }
}
