import { and, eq, gt, lt } from 'drizzle-orm'
import { secretHash } from '../../../lib/secret-hash'
import type { AppContext } from '../../context'
import { ssoHandoffElsewhere, ssoHandoffNotValid } from '../../../errors'
import { randomId } from '../../../lib/ids'
import { isSignedValue, signedValue } from '../../../lib/signed-value'

/** How long the dashboard has to collect a finished single sign-on. */
export const HANDOFF_MS = 60_000

/** A finished sign-in's two halves: `code` goes in the address, `browser` in a cookie of the browser that finished it. */
export type Handoff = { code: string; browser: string }

const browserFields = (code: string) => ['sso handoff', code]

/**
 * A finished single sign-on, waiting for the dashboard: a one-time code (128 bits; only its hash is kept) that
 * goes in the address the provider's redirect ends on, so the session token itself is never in an address,
 * a history entry or a server log. The code alone is not enough: an attacker could finish a sign-in of their
 * own and send its address to someone, whose dashboard would then be signed in as the attacker (login CSRF),
 * and their uploads would land in the attacker's account. So the code works only together with `browser`, a
 * value signed with the server key for this code, which the callback's answer sets as an HttpOnly cookie in
 * the browser that started the sign-in (the callback has just checked that browser's pending sign-in).
 */
export async function handOff(ctx: AppContext, userId: string): Promise<Handoff> {
  const { ssoHandoffs } = ctx.db.tables
  const code = randomId(16)
  const expiresAt = ctx.now() + HANDOFF_MS
  await ctx.db.orm.delete(ssoHandoffs).where(lt(ssoHandoffs.expiresAt, ctx.now())) // the ones nobody collected
  await ctx.db.orm.insert(ssoHandoffs).values({ codeHash: secretHash(code), userId, expiresAt })
  return { code, browser: signedValue(ctx.signingKey, browserFields(code), expiresAt) }
}

/**
 * The user a handoff code was made for, once: the code is deleted in the same statement. `browsers` are the
 * handoff cookies the request carries; without the one made for this code the code is refused and left alone,
 * for the browser it belongs to.
 */
export async function collectHandoff(ctx: AppContext, input: { code: string; browsers: readonly string[] }): Promise<string> {
  const { ssoHandoffs } = ctx.db.tables
  if (!input.browsers.some((browser) => isSignedValue(ctx.signingKey, browserFields(input.code), browser, ctx.now())))
    throw ssoHandoffElsewhere()
  const [taken] = await ctx.db.orm
    .delete(ssoHandoffs)
    .where(and(eq(ssoHandoffs.codeHash, secretHash(input.code)), gt(ssoHandoffs.expiresAt, ctx.now())))
    .returning({ userId: ssoHandoffs.userId })
  if (!taken) throw ssoHandoffNotValid()
  return taken.userId
}
