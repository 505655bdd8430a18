import { parseScopes, SCOPES } from '../core/accounts/scopes'
import { recordAudit } from '../core/audit/record'
import { tokenFacts } from '../core/accounts/presenter'
import type { AppContext } from '../core/context'
import { parseTtl } from '../lib/durations'
import { DEFAULT_TOKEN_TTL } from '../shared/account-shapes'
import { issueToken } from '../core/accounts/tokens/issue-token'
import { listTokens } from '../core/accounts/tokens/list-tokens'
import { revokeToken } from '../core/accounts/tokens/revoke-token'
import { memberTeamId } from '../core/teams/find-team'
import { allowOnly, stringFlag, type ParsedArgs } from './args'
import { CliFailure, table, type CliIo } from './io'

export const TOKEN_USAGE = `token issue NAME [--label TEXT] [--ttl 90d|12h|30m|2w|1y|never] [--scope S1,S2] [--team TEAM]
                                print a new API token (only the JWT, on stdout); --scope limits
                                it to ${SCOPES.join(', ')}; --team (a team id or name
                                NAME is a member of) makes it act for the team (docs/teams.md)
  token list [NAME]             tokens, newest first
  token revoke TOKEN_ID|JWT     revoke a token at once`

/** A token's scopes as the CLI shows them: "all" for a token issued without scopes. */
const scopesText = (column: string | null) => (column === null ? 'all' : column.split(' ').join(','))

export async function tokenCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<void> {
  const [, action, subject, ...extra] = args.positionals
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  switch (action) {
    case 'issue': {
      allowOnly(args, 'token issue', ['label', 'ttl', 'scope', 'team'])
      if (!subject) throw new CliFailure('token issue needs a user NAME', 2)
      const ttlText = stringFlag(args, 'ttl') ?? DEFAULT_TOKEN_TTL
      const ttlSeconds = parseTtl(ttlText)
      if (ttlSeconds === undefined)
        throw new CliFailure(
          `invalid --ttl ${JSON.stringify(ttlText)}: use a number with s, m, h, d, w or y (e.g. 90d, 12h), or "never"`,
          2,
        )
      const label = stringFlag(args, 'label') ?? '' // checked by issueToken, as the API's labels are
      const scopeText = stringFlag(args, 'scope')
      const scopes = scopeText === undefined ? undefined : parseScopes(scopeText)
      if (scopes && 'problem' in scopes) throw new CliFailure(`invalid --scope: ${scopes.problem}`, 2)
      const teamText = stringFlag(args, 'team')
      const teamId = teamText === undefined ? undefined : await memberTeamId(ctx, { userName: subject, team: teamText })
      const { jwt, token } = await issueToken(ctx, {
        userName: subject,
        label,
        ttlSeconds,
        scopes: scopes && new Set(scopes.scopes),
        teamId,
      })
      await recordAudit(ctx, { action: 'token.issued', actor: { via: 'cli' }, userId: token.userId, detail: tokenFacts(token) })
      io.out(jwt)
      io.err(
        `issued token ${token.id} for ${subject}, ${token.expiresAt === null ? 'never expires' : `expires ${new Date(token.expiresAt).toISOString()}`}, ` +
          `scopes: ${scopesText(token.scopes)}${token.teamId === null ? '' : `, for team ${token.teamId}`}`,
      )
      return
    }
    case 'list': {
      allowOnly(args, 'token list', [])
      const tokens = await listTokens(ctx, { userName: subject })
      if (tokens.length === 0) return io.err('no tokens')
      const now = ctx.now()
      io.out(
        table(
          ['ID', 'USER', 'LABEL', 'CREATED', 'EXPIRES', 'SCOPES', 'STATUS'],
          tokens.map((token) => [
            token.id,
            token.userName,
            token.label || '-',
            new Date(token.createdAt).toISOString(),
            token.expiresAt === null ? 'never' : new Date(token.expiresAt).toISOString(),
            scopesText(token.scopes),
            token.revokedAt !== null ? 'revoked' : token.expiresAt !== null && token.expiresAt <= now ? 'expired' : 'active',
          ]),
        ),
      )
      return
    }
    case 'revoke': {
      allowOnly(args, 'token revoke', [])
      if (!subject) throw new CliFailure('token revoke needs a TOKEN_ID (see token list)', 2)
      const token = await revokeToken(ctx, { tokenIdOrJwt: subject })
      await recordAudit(ctx, {
        action: 'token.revoked',
        actor: { via: 'cli' },
        userId: token.userId,
        detail: { tokenId: token.id, label: token.label },
      })
      io.out(`revoked token ${token.id}`)
      return
    }
    default:
      throw new CliFailure(action ? `unknown command "token ${action}"` : 'token needs a subcommand: issue, list or revoke', 2)
  }
}
