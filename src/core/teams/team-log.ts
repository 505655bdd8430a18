import type { AppContext } from '../context'
import { type AuditEntriesPage, type AuditFilter, listAuditEntries } from '../audit/list-entries'
import { memberOf, ownerRefusal, type TeamAsker } from './team-rows'

/**
 * A team's audit log, for its owners (docs/teams.md, The team's log): the entries that acted for the team or name
 * it, newest first, paged like the account's log. The owner condition is part of the query; when it reads
 * nothing, the asker's role says why: not a member (404 team_not_found) or not an owner (403 team_owner_only).
 */
export async function listTeamLog(
  ctx: AppContext,
  input: { asker: TeamAsker; teamId: string; filter: Omit<AuditFilter, 'userId' | 'teamId' | 'readableIf' | 'byAnother'> },
): Promise<AuditEntriesPage> {
  const refusal = await ownerRefusal(ctx, input.asker, input.teamId, 'read its log')
  if (refusal) throw refusal
  return listAuditEntries(ctx, {
    ...input.filter,
    teamId: input.teamId,
    readableIf: memberOf(ctx.db.tables, input.teamId, input.asker.userId, ['owner']),
  })
}
