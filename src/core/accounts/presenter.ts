import { scopesOfColumn } from './scopes'
import type { TokenRow } from '../../db/tables'
import type { IssuedTokenDto, SignInDto, TokenDto } from '../../routes/auth/model'
import type { IssuedToken } from './tokens/issue-token'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
const scopesOfRow = (row: Pick<TokenRow, 'scopes'>) => (row.scopes === null ? null : [...scopesOfColumn(row.scopes)])

/** The only way a token row leaves the server: never its value, and whether it is the one asking. */
export function toTokenDto(row: TokenRow, currentTokenId: string): TokenDto {
  return {
    id: row.id,
    label: row.label,
    scopes: scopesOfRow(row),
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: iso(row.expiresAt),
    current: row.id === currentTokenId,
    team: row.teamId,
  }
}

/** A new token: its value, shown this once. */
export function toIssuedTokenDto(issued: IssuedToken): IssuedTokenDto {
  return {
    token: issued.jwt,
    id: issued.token.id,
    label: issued.token.label,
    scopes: scopesOfRow(issued.token),
    expiresAt: iso(issued.token.expiresAt),
    team: issued.token.teamId,
  }
}

/** A password sign-in: the session token and whose it is. */
export function toSignInDto(session: IssuedToken & { user: SignInDto['user'] }): SignInDto {
  return {
    token: session.jwt,
    tokenId: session.token.id,
    label: session.token.label,
    expiresAt: iso(session.token.expiresAt),
    user: session.user,
  }
}

/** A token as the audit log keeps it: which one and what it may do, never its value. */
export function tokenFacts(row: TokenRow): {
  tokenId: string
  label: string
  scopes: string[] | null
  expiresAt: string | null
  teamId?: string
} {
  // A team token's entries name its team, so they are in the team's log too (docs/teams.md, The team's log).
  const team = row.teamId === null ? {} : { teamId: row.teamId }
  return { tokenId: row.id, label: row.label, scopes: scopesOfRow(row), expiresAt: iso(row.expiresAt), ...team }
}
