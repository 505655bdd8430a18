import { and, eq, isNull } from 'drizzle-orm'
import type { Caller } from '../authenticate'
import { scopesToIssue } from '../scopes'
import type { AppContext } from '../../context'
import { teamSessionNeedsSignIn, unauthorized } from '../../../errors'
import { getTeam, type TeamWithRole } from '../../teams/list-teams'
import { type IssuedToken, issueToken } from './issue-token'

export const TEAM_SESSION_LABEL = 'dashboard team session'

/**
 * A dashboard's team session (docs/teams.md, The dashboard): a team token opened from the caller's sign-in
 * session, to act for one of the caller's teams. It is a token row like any team token, so the authenticator
 * checks its membership and role on every request; it also keeps the session it came from (`session_id`) and
 * works only while that session does. It expires with the session, is revoked with it, and is never listed
 * among the API tokens. Opening one again for the same team revokes the previous one, so switching back and
 * forth does not pile up rows against the token cap.
 */
export async function issueTeamSession(
  ctx: AppContext,
  input: { caller: Caller; teamId: string },
): Promise<IssuedToken & { team: TeamWithRole }> {
  const { caller } = input
  // Only a sign-in's own session may open one: an API token has `POST /api/tokens` with `team` for this.
  if (caller.provedAt === null || caller.team !== null) throw teamSessionNeedsSignIn()
  const team = await getTeam(ctx, { asker: { userId: caller.userId, tokenTeamId: null }, teamId: input.teamId })
  const { tokens } = ctx.db.tables
  const [session] = await ctx.db.orm.select({ expiresAt: tokens.expiresAt }).from(tokens).where(eq(tokens.id, caller.tokenId))
  if (!session) throw unauthorized()
  const ttlSeconds = session.expiresAt === null ? null : Math.max(1, Math.floor((session.expiresAt - ctx.now()) / 1000))
  await ctx.db.orm
    .update(tokens)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(tokens.sessionId, caller.tokenId), eq(tokens.teamId, team.id), isNull(tokens.revokedAt)))
  const granted = scopesToIssue(caller, undefined)
  const issued = await issueToken(ctx, {
    userName: caller.userName,
    label: TEAM_SESSION_LABEL,
    ttlSeconds,
    scopes: 'scopes' in granted ? granted.scopes : undefined,
    teamId: team.id,
    sessionId: caller.tokenId,
  })
  return { ...issued, team }
}
