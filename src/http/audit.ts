import type { Server } from 'bun'
import type { Caller } from '../core/accounts/authenticate'
import { type Actor, type AuditAction, type AuditDetail, recordAudit } from '../core/audit/record'
import type { AppContext } from '../core/context'
import { clientGroupOf } from './client-ip'

/** A request's actor for the audit log: the caller, from the client's address (its /64 for IPv6). */
export function apiActor(ctx: AppContext, request: Request, server: Server<unknown> | null, who: { userId: string; name: string }): Actor {
  return { via: 'api', userId: who.userId, name: who.name, address: clientGroupOf(request, server, ctx.config.trustProxyHops) }
}

/** What an authenticated route records with: `audit('link.created', { linkId })`, about the caller's own account unless told. */
export type Audit = (action: AuditAction, detail?: AuditDetail, userId?: string | null) => Promise<void>

/**
 * The actor is always the person; a request through a team token or team session also names the team it acted
 * for (`actingTeam`, docs/teams.md), so the log says who did what for which team.
 */
export function auditFor(ctx: AppContext, request: Request, server: Server<unknown> | null, caller: Caller): Audit {
  return (action, detail, userId = caller.userId) =>
    recordAudit(ctx, {
      action,
      actor: apiActor(ctx, request, server, { userId: caller.userId, name: caller.userName }),
      userId,
      detail: caller.team ? { ...detail, actingTeam: caller.team.id } : detail,
    })
}
