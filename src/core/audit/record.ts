import type { AuditAction } from '../../shared/audit-shapes'
import type { AppContext } from '../context'

export type { AuditAction } from '../../shared/audit-shapes'

/**
 * Who acted: a user through the API (with the client's address; `userId` null for a client that is no one yet,
 * such as a failed sign-in, named ANONYMOUS), or the server's own command line.
 */
export type Actor = { via: 'api'; userId: string | null; name: string; address: string } | { via: 'cli' }

/** The actor's name of a request that proved no identity. */
export const ANONYMOUS = 'anonymous'

/** The name an entry of the command line carries as its actor. */
export const CLI_ACTOR_NAME = 'pdfshare CLI'

/** The facts of an entry: ids, names, labels, scopes, limits. A value that could let someone in never goes here. */
export type AuditDetail = Record<string, string | number | boolean | null | readonly string[]>

export type AuditEntry = {
  action: AuditAction
  actor: Actor
  /** The account the entry is about (its owner sees it); null when there is none. */
  userId: string | null
  detail?: AuditDetail
}

/**
 * The team an entry concerns, which its owners read in the team's log (docs/teams.md, The team's log): the team a
 * team token or team session acted for (`actingTeam`), else the team its facts name (`teamId`: a team managed
 * through a personal token, a file moved into a team, an admin's limits, a new owner).
 */
function teamOfEntry(detail: AuditDetail | undefined): string | null {
  const team = detail?.actingTeam ?? detail?.teamId
  return typeof team === 'string' ? team : null
}

/**
 * Writes one entry. Called after the action committed, so an entry never claims what did not happen; a failure
 * here is logged and does not undo the action (an audit log that could refuse deletions would be worse).
 */
export async function recordAudit(ctx: AppContext, entry: AuditEntry): Promise<void> {
  const { auditEvents } = ctx.db.tables
  try {
    await ctx.db.orm.insert(auditEvents).values({
      at: ctx.now(),
      action: entry.action,
      userId: entry.userId,
      actorId: entry.actor.via === 'api' ? entry.actor.userId : null,
      actorName: entry.actor.via === 'api' ? entry.actor.name : CLI_ACTOR_NAME,
      via: entry.actor.via,
      address: entry.actor.via === 'api' ? entry.actor.address : null,
      detail: JSON.stringify(entry.detail ?? {}),
      teamId: teamOfEntry(entry.detail),
    })
  } catch (error) {
    ctx.log.error(`the audit log could not record ${entry.action}`, error)
  }
}
