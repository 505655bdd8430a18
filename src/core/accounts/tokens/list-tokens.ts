import { and, desc, eq, gt, isNull, or } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { Tables } from '../../../db/database'
import type { TokenRow } from '../../../db/tables'
import { findUserByName } from '../users/users'

/** Every token, revoked and expired ones too, of one user or of all, newest first (`pdfshare token list`). */
export async function listTokens(ctx: AppContext, input: { userName?: string }): Promise<(TokenRow & { userName: string })[]> {
  const { tokens, users } = ctx.db.tables
  const userFilter = input.userName === undefined ? undefined : eq(users.id, (await findUserByName(ctx, input.userName)).id)
  const rows = await ctx.db.orm
    .select({ token: tokens, userName: users.name })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(userFilter)
    .orderBy(desc(tokens.createdAt))
  return rows.map((row) => ({ ...row.token, userName: row.userName }))
}

/** A user's tokens that still work (not revoked, not expired), newest first; a dashboard's team sessions are not listed (they live and die with their sign-in session). */
export async function listActiveTokens(ctx: AppContext, userId: string): Promise<TokenRow[]> {
  const { tokens } = ctx.db.tables
  return ctx.db.orm
    .select()
    .from(tokens)
    .where(and(isActiveTokenOf(ctx.db.tables, userId, ctx.now()), isNull(tokens.sessionId)))
    .orderBy(desc(tokens.createdAt), desc(tokens.id))
}

/** SQL condition: a token of `userId` that still works at `nowMs`. */
export function isActiveTokenOf({ tokens }: Tables, userId: string, nowMs: number) {
  return and(eq(tokens.userId, userId), isNull(tokens.revokedAt), or(isNull(tokens.expiresAt), gt(tokens.expiresAt, nowMs)))!
}
