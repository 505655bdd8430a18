import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import type { AuthGuard } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import { auditFilterFrom } from './input'
import { AdminAuditQuery, AuditPageEnvelope, AuditQuery } from './model'
import { toAuditEntryDto } from '../../core/audit/presenter'
import { listAuditEntries } from '../../core/audit/list-entries'

const tags = ['audit']

/** The audit log: GET /api/audit (the caller's own account) and GET /api/admin/audit (everyone's, for admins). */
export function auditRoutes(ctx: AppContext, auth: AuthGuard) {
  return new Elysia({ name: 'audit', prefix: '/api' })
    .use(auth)
    .get(
      '/audit',
      async ({ caller, query }) => {
        const page = await listAuditEntries(ctx, { ...auditFilterFrom(query), userId: caller.userId })
        return { success: true as const, data: page.rows.map((row) => toAuditEntryDto(row, caller)), nextCursor: page.nextCursor }
      },
      {
        auth: 'account',
        query: AuditQuery,
        response: { 200: AuditPageEnvelope, 400: FailureSchema, ...authFailures },
        detail: { summary: 'What happened on your account, newest first: sign-ins, tokens, deletions, links, webhooks', tags },
      },
    )
    .get(
      '/admin/audit',
      async ({ caller, query }) => {
        const page = await listAuditEntries(ctx, { ...auditFilterFrom(query), userName: query.user })
        return { success: true as const, data: page.rows.map((row) => toAuditEntryDto(row, caller)), nextCursor: page.nextCursor }
      },
      {
        auth: 'admin',
        query: AdminAuditQuery,
        response: { 200: AuditPageEnvelope, 400: FailureSchema, 403: FailureSchema, ...authFailures },
        detail: { summary: "Everyone's audit log, newest first (admins)", tags },
      },
    )
}
