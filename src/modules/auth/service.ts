import { and, eq, isNull } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { tokens, users } from '../../db/schema'
import { verifyToken } from './jwt'

/** Who is calling: resolved from the bearer token on every authenticated request. */
export type Caller = { userId: string; userName: string; tokenId: string }

const BEARER = /^bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*) *$/i
/** Our tokens are about 250 characters; anything far longer is refused before any parsing or crypto. */
const MAX_TOKEN_LENGTH = 2048

/**
 * The caller behind an Authorization header, or `undefined` for any failure (contract §2): no header,
 * another scheme, a token that does not verify with HS256 and our claims, an unknown or revoked `jti`,
 * a token whose `sub` is not the user it was issued to, or a user that no longer exists.
 */
export async function authenticate(ctx: AppContext, authorization: string | null): Promise<Caller | undefined> {
  const match = authorization && authorization.length <= MAX_TOKEN_LENGTH + 16 ? BEARER.exec(authorization) : null
  if (!match?.[1]) return undefined
  const claims = await verifyToken(ctx.signingKey, match[1])
  if (!claims) return undefined
  const [row] = await ctx.db
    .select({ userId: users.id, userName: users.name })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(and(eq(tokens.id, claims.jti), eq(tokens.userId, claims.sub), isNull(tokens.revokedAt)))
  return row ? { ...row, tokenId: claims.jti } : undefined
}
