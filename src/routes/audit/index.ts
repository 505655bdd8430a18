import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import type { AuthGuard } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import { auditFilterFrom } from './input'
import { AdminAuditQuery, AuditPageEnvelope, AuditQuery, TeamAuditParams, TeamAuditQuery } from './model'
import { listTeamLog } from '../../core/teams/team-log'
import { toAuditEntryDto } from '../../core/audit/presenter'
import { listAuditEntries } from '../../core/audit/list-entries'

const tags = ['audit']

/**
 * The audit log: GET /api/audit (the caller's own account), GET /api/teams/:id/audit (a team's, for its owners) and
 * GET /api/admin/audit (everyone's, for admins).
 */
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
      '/teams/:id/audit',
      async ({ caller, params, query }) => {
        const { byAnother: _, ...filter } = auditFilterFrom(query)
        const asker = { userId: caller.userId, tokenTeamId: caller.team?.id ?? null }
        const page = await listTeamLog(ctx, { asker, teamId: params.id, filter })
        // Addresses as in the account's log: the reader's own only, even for an admin (a team's log is no admin's).
        const viewer = { userId: caller.userId, isAdmin: false }
        return { success: true as const, data: page.rows.map((row) => toAuditEntryDto(row, viewer)), nextCursor: page.nextCursor }
      },
      {
        auth: 'teams:write',
        params: TeamAuditParams,
        query: TeamAuditQuery,
        response: { 200: AuditPageEnvelope, 400: FailureSchema, 403: FailureSchema, 404: FailureSchema, ...authFailures },
        detail: {
          summary: "A team's log, newest first (its owners): what was done for the team or to it",
          description:
            "The entries made through the team's tokens and team sessions, and those naming the team (its members, its limits, files moved into it), paged like GET /api/audit. teams:write and the owner role: an editor or a viewer gets 403 team_owner_only, a non-member 404 team_not_found, a team token another team's 404 (docs/teams.md, The team's log).",
          tags,
        },
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
