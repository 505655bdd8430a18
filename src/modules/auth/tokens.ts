import { and, desc, eq, gt, isNull, or } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { tokens, users, type TokenRow } from '../../db/schema'
import { AppError } from '../../errors'
import { randomId } from '../../lib/ids'
import { signToken, unverifiedTokenId } from './jwt'
import { findUserByName } from './users'

export type IssuedToken = { jwt: string; token: TokenRow }

/** Creates a token row and signs the JWT for it. `ttlSeconds: null` issues a token without `exp`. */
export async function issueToken(ctx: AppContext, input: { userName: string; label: string; ttlSeconds: number | null }): Promise<IssuedToken> {
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
  await ctx.db.insert(tokens).values(token)
  const jwt = await signToken(ctx.signingKey, { sub: user.id, jti: token.id, iat, ...(exp !== undefined && { exp }) })
  return { jwt, token }
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
  if (!existing) throw new AppError(404, 'not_found', `No token with id ${JSON.stringify(input.tokenIdOrJwt)}`)
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
    .where(and(eq(tokens.userId, userId), isNull(tokens.revokedAt), or(isNull(tokens.expiresAt), gt(tokens.expiresAt, ctx.now()))))
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
  if (!revoked) throw new AppError(404, 'not_found', 'Token not found')
  return revoked
}
