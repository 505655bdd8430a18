import { and, eq, sql } from 'drizzle-orm'
import { signToken } from '../jwt'
import { columnOfScopes, type Scope } from '../scopes'
import type { AppContext } from '../../context'
import type { TokenRow } from '../../../db/tables'
import { badRequest, teamNotFound, tooManyTokens } from '../../../errors'
import { isWellFormedId, randomId } from '../../../lib/ids'
import { memberOf } from '../../teams/team-rows'
import { findUserByName } from '../users/users'
import { isActiveTokenOf } from './list-tokens'
import { tokenLabel } from './label-rules'

export type IssuedToken = { jwt: string; token: TokenRow }

/**
 * Creates a token row and signs the JWT for it. `ttlSeconds: null` issues a token without `exp`; without
 * `scopes` it may do everything its user may; with `provedAt` it is a sign-in's session (startSession only). The
 * label must pass the text rules (rules.ts), whoever issues it.
 *
 * A user has at most `config.maxTokensPerUser` active tokens (not revoked, not expired), whoever issues them:
 * the API, a sign-in or the CLI. Minting tokens must not buy more of anything, and each one is a row and a
 * cache entry. The count is part of the INSERT, so concurrent requests cannot slip past it together. With
 * `replaceOldest`, the oldest active token with that label is revoked in the same transaction to make room
 * (sign-in sessions: a forgotten one must not lock its owner out); otherwise one past the cap is `quota_exceeded`.
 */
export async function issueToken(
  ctx: AppContext,
  input: {
    userName: string
    label: string
    ttlSeconds: number | null
    replaceOldest?: string
    scopes?: ReadonlySet<Scope>
    /** A sign-in's session: when the sign-in proved who the user is (tokens.proved_at). Never for an API token. */
    provedAt?: number
    /** A team token: the team it acts for; its user must be a member (checked in the INSERT). */
    teamId?: string
    /** A dashboard's team session: the sign-in session it is opened from (issue-team-session.ts). */
    sessionId?: string
  },
): Promise<IssuedToken> {
  const { tokens } = ctx.db.tables
  const label = tokenLabel(input.label)
  if (!label.ok) throw badRequest(label.problem)
  const user = await findUserByName(ctx, input.userName)
  const nowMs = ctx.now()
  const iat = Math.floor(nowMs / 1000)
  const exp = input.ttlSeconds === null ? undefined : iat + input.ttlSeconds
  const token: TokenRow = {
    id: randomId(),
    userId: user.id,
    label: label.value,
    createdAt: nowMs,
    expiresAt: exp === undefined ? null : exp * 1000,
    revokedAt: null,
    scopes: input.scopes === undefined ? null : columnOfScopes(input.scopes),
    provedAt: input.provedAt ?? null,
    teamId: input.teamId ?? null,
    sessionId: input.sessionId ?? null,
  }
  // A team token's user must be a member of the team when it is issued (and on every use: authenticate.ts).
  const memberOfTeam = token.teamId === null ? sql`` : sql` AND ${memberOf(ctx.db.tables, token.teamId, user.id)}`
  if (token.teamId !== null && !isWellFormedId(token.teamId)) throw teamNotFound()
  const cap = ctx.config.maxTokensPerUser
  const activeCount = sql`(SELECT count(*) FROM ${tokens} WHERE ${isActiveTokenOf(ctx.db.tables, user.id, nowMs)})`
  const insert = ctx.db.orm.run(sql`
    INSERT INTO ${tokens} (id, user_id, label, created_at, expires_at, revoked_at, scopes, proved_at, team_id, session_id)
    SELECT ${token.id}, ${token.userId}, ${token.label}, ${token.createdAt}, ${token.expiresAt}, NULL, ${token.scopes}, ${token.provedAt}, ${token.teamId}, ${token.sessionId}
    WHERE ${activeCount} < ${cap}${memberOfTeam}`)
  let inserted: { rowsAffected: number }
  if (input.replaceOldest === undefined) inserted = await insert
  else {
    const oldest = sql`(SELECT ${tokens.id} FROM ${tokens} WHERE ${isActiveTokenOf(ctx.db.tables, user.id, nowMs)} AND ${tokens.label} = ${input.replaceOldest}
      ORDER BY ${tokens.createdAt}, ${tokens.id} LIMIT 1)`
    const makeRoom = ctx.db.orm
      .update(tokens)
      .set({ revokedAt: nowMs })
      .where(and(eq(tokens.id, oldest), sql`${activeCount} >= ${cap}`))
    ;[, inserted] = await ctx.db.orm.batch([makeRoom, insert])
  }
  if (inserted.rowsAffected === 0) {
    if (token.teamId !== null && !(await isMember(ctx, token.teamId, user.id))) throw teamNotFound()
    throw tooManyTokens(cap)
  }
  const jwt = await signToken(ctx.signingKey, { sub: user.id, jti: token.id, iat, ...(exp !== undefined && { exp }) })
  return { jwt, token }
}

async function isMember(ctx: AppContext, teamId: string, userId: string): Promise<boolean> {
  const [row] = await ctx.db.orm.all<{ yes: number }>(sql`SELECT 1 AS yes WHERE ${memberOf(ctx.db.tables, teamId, userId)}`)
  return row !== undefined
}
