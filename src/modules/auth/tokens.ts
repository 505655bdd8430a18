import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { tokens, users, type TokenRow } from '../../db/schema'
import { noTokenWithId, tokenNotFound, tooManyTokens } from '../../errors'
import { randomId } from '../../lib/ids'
import { signToken, unverifiedTokenId } from './jwt'
import { findUserByName } from './users'

export type IssuedToken = { jwt: string; token: TokenRow }

/**
 * Creates a token row and signs the JWT for it. `ttlSeconds: null` issues a token without `exp`.
 *
 * A user has at most `config.maxTokensPerUser` active tokens (not revoked, not expired), whoever issues them:
 * the API, a sign-in or the CLI. Minting tokens must not buy more of anything, and each one is a row and a
 * cache entry. The count is part of the INSERT, so concurrent requests cannot slip past it together. With
 * `replaceOldest`, the oldest active token with that label is revoked in the same transaction to make room
 * (sign-in sessions: a forgotten one must not lock its owner out); otherwise one past the cap is `quota_exceeded`.
 */
export async function issueToken(ctx: AppContext, input: { userName: string; label: string; ttlSeconds: number | null; replaceOldest?: string }): Promise<IssuedToken> {
  const user = await findUserByName(ctx, input.userName)
  const nowMs = ctx.now()
  const iat = Math.floor(nowMs / 1000)
  const exp = input.ttlSeconds === null ? undefined : iat + input.ttlSeconds
  const token: TokenRow = {
    id: randomId(),
    userId: user.id,
    label: input.label,
    createdAt: nowMs,
    expiresAt: exp === undefined ? null : exp * 1000,
    revokedAt: null,
  }
  const cap = ctx.config.maxTokensPerUser
  const activeCount = sql`(SELECT count(*) FROM ${tokens} WHERE ${isActiveTokenOf(user.id, nowMs)})`
  const insert = ctx.db.run(sql`
    INSERT INTO ${tokens} (id, user_id, label, created_at, expires_at, revoked_at)
    SELECT ${token.id}, ${token.userId}, ${token.label}, ${token.createdAt}, ${token.expiresAt}, NULL
    WHERE ${activeCount} < ${cap}`)
  let inserted
  if (input.replaceOldest === undefined) inserted = await insert
  else {
    const oldest = sql`(SELECT ${tokens.id} FROM ${tokens} WHERE ${isActiveTokenOf(user.id, nowMs)} AND ${tokens.label} = ${input.replaceOldest}
      ORDER BY ${tokens.createdAt}, ${tokens.id} LIMIT 1)`
    const makeRoom = ctx.db.update(tokens).set({ revokedAt: nowMs }).where(and(eq(tokens.id, oldest), sql`${activeCount} >= ${cap}`))
    ;[, inserted] = await ctx.db.batch([makeRoom, insert])
  }
  if (inserted.rowsAffected === 0) throw tooManyTokens(cap)
  const jwt = await signToken(ctx.signingKey, { sub: user.id, jti: token.id, iat, ...(exp !== undefined && { exp }) })
  return { jwt, token }
}

/** SQL condition: a token of `userId` that still works at `nowMs`. */
function isActiveTokenOf(userId: string, nowMs: number) {
  return and(eq(tokens.userId, userId), isNull(tokens.revokedAt), or(isNull(tokens.expiresAt), gt(tokens.expiresAt, nowMs)))!
}

export async function listTokens(ctx: AppContext, input: { userName?: string }): Promise<(TokenRow & { userName: string })[]> {
  const userFilter = input.userName === undefined ? undefined : eq(users.id, (await findUserByName(ctx, input.userName)).id)
  const rows = await ctx.db
    .select({ token: tokens, userName: users.name })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(userFilter)
    .orderBy(desc(tokens.createdAt))
  return rows.map((row) => ({ ...row.token, userName: row.userName }))
}

/** Revokes by token id, or by the whole JWT (its `jti` is read without verification: revoking needs no trust). */
export async function revokeToken(ctx: AppContext, input: { tokenIdOrJwt: string }): Promise<TokenRow> {
  const id = input.tokenIdOrJwt.includes('.') ? unverifiedTokenId(input.tokenIdOrJwt) : input.tokenIdOrJwt
  const [existing] = id ? await ctx.db.select().from(tokens).where(eq(tokens.id, id)) : []
  if (!existing) throw noTokenWithId(input.tokenIdOrJwt)
  if (existing.revokedAt !== null) return existing
  const [revoked] = await ctx.db
    .update(tokens)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(tokens.id, existing.id), isNull(tokens.revokedAt)))
    .returning()
  return revoked ?? existing
}

/** A user's tokens that still work (not revoked, not expired), newest first. */
export async function listActiveTokens(ctx: AppContext, userId: string): Promise<TokenRow[]> {
  return ctx.db
    .select()
    .from(tokens)
    .where(isActiveTokenOf(userId, ctx.now()))
    .orderBy(desc(tokens.createdAt), desc(tokens.id))
}

/**
 * Revokes one of the caller's own tokens. The owner is part of the statement, so another user's token id
 * is "not found" exactly like an unknown or already revoked one.
 */
export async function revokeOwnToken(ctx: AppContext, input: { userId: string; id: string }): Promise<TokenRow> {
  const [revoked] = await ctx.db
    .update(tokens)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(tokens.id, input.id), eq(tokens.userId, input.userId), isNull(tokens.revokedAt)))
    .returning()
  if (!revoked) throw tokenNotFound()
  return revoked
}
