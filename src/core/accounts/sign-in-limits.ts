import type { AppContext } from '../context'
import { DomainError, rateLimited } from '../../errors'
import { loggedRateLimiter } from '../limits/logged-rate-limit'

export type SignInAttempt = <T>(who: { address: string; name: string }, signIn: () => Promise<T>) => Promise<T>

/**
 * Failed sign-ins, limited per client address and per user name (`PDFSHARE_RATE_LIMIT_LOGIN` a minute each).
 *
 * Only failures count: a right password never uses up anything, so nobody can lock a user out by guessing.
 * An attempt counts as a failure while its password is checked (so parallel guesses cannot overtake the
 * count) and is taken back if it succeeds, or if it ends without an answer about the password (server_busy, internal).
 *
 * - An address over its budget is refused whatever it sends, until the minute is over.
 * - A name over its budget is refused only to addresses that have failed (or are trying) this minute. The
 *   owner at an address without failures still gets in; a guessing address loses its turn after one failure.
 *   The price: while a name is locked, each fresh address may still make one guess at it per minute.
 */
export function signInLimits(ctx: AppContext): SignInAttempt {
  const perMinute = ctx.config.rateLimitLogin
  const byAddress = loggedRateLimiter(ctx, 'of failed sign-ins per address', perMinute)
  const byName = loggedRateLimiter(ctx, 'of failed sign-ins per user name', perMinute)
  // Each attempt counts and decides in turn: the two counters (in memory, or shared in PostgreSQL, where every
  // hit is a round trip) then see this instance's attempts in one order, so parallel guesses get exactly the budget.
  let turn: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work)
    turn = run.catch(() => {})
    return run
  }
  return async (who, signIn) => {
    const now = ctx.now()
    const takeBack = () => Promise.all([byAddress.undo(who.address, now), byName.undo(who.name, now)])
    const decision = await inTurn(async () => {
      const address = await byAddress.hit(who.address, now)
      const name = await byName.hit(who.name, now)
      if (!address || !name) return 'off' as const // the limit is off
      const addressHasFailed = address.limit - address.remaining > 1 // this attempt is not the address's first
      const refusal = !address.allowed ? address : !name.allowed && addressHasFailed ? name : undefined
      if (refusal) await takeBack() // refused before any password was checked: not a failure
      return refusal ?? ('counted' as const)
    })
    if (decision === 'off') return signIn()
    if (decision !== 'counted') throw rateLimited(decision)
    let failed = false
    try {
      return await signIn()
    } catch (error) {
      failed = error instanceof DomainError && error.code === 'unauthorized'
      throw error
    } finally {
      if (!failed) await takeBack()
    }
  }
}
