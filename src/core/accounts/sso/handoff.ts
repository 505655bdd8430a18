import { and, eq, gt, lt } from 'drizzle-orm'
import { secretHash } from '../../../lib/secret-hash'
import type { AppContext } from '../../context'
import { ssoHandoffNotValid } from '../../../errors'
import { randomId } from '../../../lib/ids'

/** How long the dashboard has to collect a finished single sign-on. */
const HANDOFF_MS = 60_000

/**
 * A finished single sign-on, waiting for the dashboard: a one-time code (128 bits; only its hash is kept) that
 * goes in the address the provider's redirect ends on, so the session token itself is never in an address,
 * a history entry or a server log.
 */
export async function handOff(ctx: AppContext, userId: string): Promise<string> {
  const { ssoHandoffs } = ctx.db.tables
  const code = randomId(16)
  await ctx.db.orm.delete(ssoHandoffs).where(lt(ssoHandoffs.expiresAt, ctx.now())) // the ones nobody collected
  await ctx.db.orm.insert(ssoHandoffs).values({ codeHash: secretHash(code), userId, expiresAt: ctx.now() + HANDOFF_MS })
  return code
}

/** The user a handoff code was made for, once: the code is deleted in the same statement. */
export async function collectHandoff(ctx: AppContext, code: string): Promise<string> {
  const { ssoHandoffs } = ctx.db.tables
  const [taken] = await ctx.db.orm
    .delete(ssoHandoffs)
    .where(and(eq(ssoHandoffs.codeHash, secretHash(code)), gt(ssoHandoffs.expiresAt, ctx.now())))
    .returning({ userId: ssoHandoffs.userId })
  if (!taken) throw ssoHandoffNotValid()
  return taken.userId
}
