import { and, desc, eq, gte, lt, ne, type SQL } from 'drizzle-orm'
import type { AuditAction } from './record'
import type { AppContext } from '../context'
import type { AuditEventRow } from '../../db/tables'

export type AuditFilter = {
  /** Only the entries about this account; undefined: every entry (admins). */
  userId?: string
  /** Only the entries of this team (docs/teams.md, The team's log). */
  teamId?: string
  /** A condition the reader must meet, inside the query (a team's log: the reader is one of its owners). */
  readableIf?: SQL
  /** Only the entries about the user of this name now (admins). */
  userName?: string
  action?: AuditAction
  /** Only what a user did to another user's account (an admin's changes, which the owner is shown). */
  byAnother?: boolean
  /** Milliseconds: entries at or after `since`, before `until`. */
  since?: number
  until?: number
  /** The `seq` of the last entry of the previous page. */
  cursor?: number
  limit: number
}

export type AuditEntryRow = AuditEventRow & { userName: string | null }
export type AuditEntriesPage = { rows: AuditEntryRow[]; nextCursor: string | null }

/** Audit-log entries, newest first, by keyset on their sequence (new entries never shift a page), with the current name of each account. */
export async function listAuditEntries(ctx: AppContext, filter: AuditFilter): Promise<AuditEntriesPage> {
  const { auditEvents, users } = ctx.db.tables
  const conditions: (SQL | undefined)[] = [
    filter.userId === undefined ? undefined : eq(auditEvents.userId, filter.userId),
    filter.teamId === undefined ? undefined : eq(auditEvents.teamId, filter.teamId),
    filter.readableIf,
    filter.userName === undefined ? undefined : eq(users.name, filter.userName),
    filter.action === undefined ? undefined : eq(auditEvents.action, filter.action),
    // NULL on either side (the CLI, an anonymous client, an entry about no account) is not "another user".
    filter.byAnother ? ne(auditEvents.actorId, auditEvents.userId) : undefined,
    filter.since === undefined ? undefined : gte(auditEvents.at, filter.since),
    filter.until === undefined ? undefined : lt(auditEvents.at, filter.until),
    filter.cursor === undefined ? undefined : lt(auditEvents.seq, filter.cursor),
  ]
  const rows = await ctx.db.orm
    .select({ entry: auditEvents, userName: users.name })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(and(...conditions))
    .orderBy(desc(auditEvents.seq))
    .limit(filter.limit + 1)
  const page = rows.slice(0, filter.limit).map((row) => ({ ...row.entry, userName: row.userName }))
  return { rows: page, nextCursor: rows.length > filter.limit ? String(page.at(-1)!.seq) : null }
}
