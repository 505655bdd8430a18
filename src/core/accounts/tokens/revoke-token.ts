import { and, eq, isNull, or } from 'drizzle-orm'
import type { Tables } from '../../../db/database'
import { unverifiedTokenId } from '../jwt'
import type { AppContext } from '../../context'
import type { TokenRow } from '../../../db/tables'
import { noTokenWithId, tokenNotFound } from '../../../errors'

/** Revokes by token id, or by the whole JWT (its `jti` is read without verification: revoking needs no trust). */
export async function revokeToken(ctx: AppContext, input: { tokenIdOrJwt: string }): Promise<TokenRow> {
  const { tokens } = ctx.db.tables
  const id = input.tokenIdOrJwt.includes('.') ? unverifiedTokenId(input.tokenIdOrJwt) : input.tokenIdOrJwt
  const [existing] = id ? await ctx.db.orm.select().from(tokens).where(eq(tokens.id, id)) : []
  if (!existing) throw noTokenWithId(input.tokenIdOrJwt)
  if (existing.revokedAt !== null) return existing
  const rows = await ctx.db.orm
    .update(tokens)
    .set({ revokedAt: ctx.now() })
    .where(and(withItsTeamSessions(ctx.db.tables, existing.id), isNull(tokens.revokedAt)))
    .returning()
  return rows.find((row) => row.id === existing.id) ?? existing
}

/**
 * Revokes one of the caller's own tokens. The owner is part of the statement, so another user's token id
 * is "not found" exactly like an unknown or already revoked one.
 */
export async function revokeOwnToken(ctx: AppContext, input: { userId: string; id: string }): Promise<TokenRow> {
  const { tokens } = ctx.db.tables
  const rows = await ctx.db.orm
    .update(tokens)
    .set({ revokedAt: ctx.now() })
    .where(and(withItsTeamSessions(ctx.db.tables, input.id), eq(tokens.userId, input.userId), isNull(tokens.revokedAt)))
    .returning()
  const revoked = rows.find((row) => row.id === input.id)
  if (!revoked) throw tokenNotFound()
  return revoked
}

/**
 * SQL: the token `id` and the team sessions opened from it (a sign-in session's, docs/teams.md). They stop
 * working with it anyway (authenticate.ts); revoking them too keeps them from counting toward the token cap.
 */
function withItsTeamSessions({ tokens }: Tables, id: string) {
  return or(eq(tokens.id, id), eq(tokens.sessionId, id))!
}
