import { versionedCache } from '../../db/versioned-cache'
import type { AppContext } from '../context'
import { isUnexpired, verifyToken, type VerifiedClaims } from './jwt'
import { isTeamRole, ROLE_SCOPES, type TeamRole } from '../teams/roles'
import { type Scope, scopesOfColumn } from './scopes'

/**
 * Who is calling: resolved from the bearer token on every authenticated request. `scopes` is what this request
 * may do: its token's scopes, without `admin` unless its user is an admin; `unrestricted`: its token was issued
 * without scopes (it may do whatever its user may, now and later); `provedAt`: for a sign-in's session, when its
 * sign-in proved who the user is (null for an API token, whatever its scopes: only a session may change how its
 * account signs in).
 *
 * `ownerId` is whose things the request reaches (files, links, rooms, requests, webhooks, channels, analytics):
 * the user's own id, or, for a team token, the team's (docs/teams.md); `team` is then the team and the user's
 * role in it, read from the membership on every request the cache misses, and `scopes` holds only what both the
 * token and the role allow. `userId` stays the person: their account, tokens, passkeys, audit log.
 */
export type Caller = {
  userId: string
  ownerId: string
  team: { id: string; role: TeamRole } | null
  userName: string
  tokenId: string
  isAdmin: boolean
  scopes: ReadonlySet<Scope>
  unrestricted: boolean
  provedAt: number | null
}

const BEARER = /^bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*) *$/i
/** Our tokens are about 250 characters; anything far longer is refused before any parsing or crypto. */
const MAX_TOKEN_LENGTH = 2048
/** Distinct tokens whose signature check is remembered; the oldest is forgotten first. */
const VERIFIED_CACHE_SIZE = 1024

// The token's row must exist, belong to the token's subject and not be revoked; the user must exist and be enabled.
// A team token's user must still be a member of its team: the role is read here, so a removed member (NULL) is refused.
// A team session works only while the sign-in session it was opened from does (docs/teams.md, The dashboard).
const CALLER_OF_TOKEN = `SELECT users.id, users.name, users.is_admin, tokens.scopes, tokens.proved_at, tokens.team_id,
    (SELECT team_members.role FROM team_members WHERE team_members.team_id = tokens.team_id AND team_members.user_id = users.id)
  FROM tokens JOIN users ON users.id = tokens.user_id
  WHERE tokens.id = ? AND tokens.user_id = ? AND tokens.revoked_at IS NULL AND users.disabled_at IS NULL
    AND (tokens.session_id IS NULL OR EXISTS (SELECT 1 FROM tokens AS parent WHERE parent.id = tokens.session_id AND parent.revoked_at IS NULL))`

export type Authenticate = (authorization: string | null) => Promise<Caller | undefined>

/**
 * Resolves the caller behind an Authorization header, or `undefined` for any failure, each answered
 * with the same 401 so a failure tells an attacker nothing: no header, another scheme, a token that does not verify with HS256 and our claims, an unknown or revoked
 * `jti`, a token whose `sub` is not the user it was issued to, a user that no longer exists.
 *
 * A repeat caller costs neither the HMAC check nor the token lookup, the two largest costs of an API request
 * (BENCHMARKS.md, Design measurements). Both caches are keyed by the exact token string and keep successes only:
 * - the verified claims, bounded, with expiry checked again on every use;
 * - the caller, in a versioned cache: every revocation, user removal or new token is a commit by another
 *   connection (the API's own writes are seen at once, a CLI process's within FOREIGN_CHECK_MS), which
 *   empties it, so a revoked token is refused on the next request, as without a cache.
 */
export function createAuthenticator(ctx: AppContext): Authenticate {
  const verified = new Map<string, VerifiedClaims>()
  const callers = versionedCache<Caller>(ctx.db.hot)
  const claimsOf = async (token: string): Promise<VerifiedClaims | undefined> => {
    const known = verified.get(token)
    if (known) return known
    const claims = await verifyToken(ctx.signingKey, token)
    if (claims) {
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!)
      verified.set(token, claims)
    }
    return claims
  }
  const lookUpCaller = async (claims: VerifiedClaims): Promise<Caller | undefined> => {
    const row = await ctx.db.hot.get(CALLER_OF_TOKEN, [claims.jti, claims.sub])
    if (!row) return undefined
    const teamId = row[5] === null ? null : String(row[5])
    const role = row[6]
    if (teamId !== null && !isTeamRole(role)) return undefined
    const team = teamId !== null && isTeamRole(role) ? { id: teamId, role } : null
    // A team token never acts as an admin: its user's admin rights are the user's, not the team's.
    const isAdmin = team === null && Boolean(row[2])
    const column = row[3] === null ? null : String(row[3])
    const held = scopesOfColumn(column)
    const allowed = (scope: Scope) => (team ? ROLE_SCOPES[team.role].has(scope) : isAdmin || scope !== 'admin')
    const scopes = new Set([...held].filter(allowed))
    return {
      userId: String(row[0]),
      ownerId: team ? team.id : String(row[0]),
      team,
      userName: String(row[1]),
      tokenId: claims.jti,
      isAdmin,
      scopes,
      // A team token is restricted by its role even when issued without scopes (what it may issue further, too).
      unrestricted: column === null && team === null,
      provedAt: row[4] === null ? null : Number(row[4]),
    }
  }
  return async (authorization) => {
    const match = authorization && authorization.length <= MAX_TOKEN_LENGTH + 16 ? BEARER.exec(authorization) : null
    const token = match?.[1]
    if (!token) return undefined
    const claims = await claimsOf(token)
    if (!claims || !isUnexpired(claims, Date.now())) return undefined
    return callers(token, () => lookUpCaller(claims))
  }
}
