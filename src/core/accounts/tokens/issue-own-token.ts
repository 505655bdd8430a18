import type { Caller } from '../authenticate'
import { type Scope, scopesToIssue } from '../scopes'
import type { AppContext } from '../../context'
import { insufficientScope } from '../../../errors'
import { type IssuedToken, issueToken } from './issue-token'

/**
 * A token the caller issues for itself (POST /api/tokens, the dashboard's token form): with the scopes asked
 * for, all of which the caller's own token must hold, or the caller's own scopes when none are asked for; with
 * `teamId`, a team token (docs/teams.md) of a team the caller is a member of.
 */
export async function issueOwnToken(
  ctx: AppContext,
  input: { issuer: Caller; label: string; ttlSeconds: number | null; scopes?: readonly Scope[]; teamId?: string },
): Promise<IssuedToken> {
  const granted = scopesToIssue(input.issuer, input.scopes)
  if ('lacking' in granted) {
    const lacking = granted.lacking.join(', ')
    throw insufficientScope(lacking, `A token cannot give more than it may do: the token of this request lacks ${lacking}`)
  }
  return issueToken(ctx, {
    userName: input.issuer.userName,
    label: input.label,
    ttlSeconds: input.ttlSeconds,
    scopes: granted.scopes,
    teamId: input.teamId,
  })
}
