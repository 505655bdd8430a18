import type { AppContext } from '../../../core/context'
import { passwordMatches } from '../../../core/passwords/argon2'
import type { LinkRow } from '../../../db/tables'
import { rateLimitFor } from '../../../core/limits/rate-limit'
import { MAX_TRACKED_KEYS } from '../../../lib/rate-limiter'

/** Wrong passwords one address may try on one link per window, before it gets 429 until the window ends. */
export const UNLOCK_FAILURES_PER_WINDOW = 10
export const UNLOCK_WINDOW_MS = 15 * 60 * 1000

export type UnlockResult = { kind: 'unlocked' } | { kind: 'wrong' } | { kind: 'rate_limited'; retryAfterSeconds: number }

export type UnlockLink = (input: { link: Pick<LinkRow, 'id' | 'passwordHash'>; address: string; password: string }) => Promise<UnlockResult>

/**
 * Checks a reader's password for a link. Failures are limited per link and address (an IPv6 /64 is one
 * address): an attempt counts while its password is checked, so parallel guesses cannot overtake the count,
 * and is taken back when it is right or ends without an answer (the hashing queue was full: `server_busy`
 * is thrown). Passwords are checked in the same bounded argon2 queue as sign-ins.
 */
export function linkUnlocker(ctx: AppContext): UnlockLink {
  const failures = rateLimitFor(ctx, 'of link passwords', {
    perMinute: UNLOCK_FAILURES_PER_WINDOW,
    windowMs: UNLOCK_WINDOW_MS,
    onOverflow: () =>
      ctx.log.error(`rate limit of link passwords: more than ${MAX_TRACKED_KEYS.toLocaleString('en')} link and address pairs this window`),
  })
  return async ({ link, address, password }) => {
    if (!link.passwordHash) return { kind: 'unlocked' }
    const key = `${link.id}\n${address}`
    const now = ctx.now()
    const decision = await failures.hit(key, now)
    if (decision && !decision.allowed) {
      await failures.undo(key, now) // refused before any check: not a failure
      return { kind: 'rate_limited', retryAfterSeconds: decision.resetSeconds }
    }
    let right = false
    try {
      right = await passwordMatches(password, link.passwordHash) // an overlong password is a mismatch there, unhashed
    } catch (error) {
      await failures.undo(key, now)
      throw error
    }
    if (right) await failures.undo(key, now)
    return right ? { kind: 'unlocked' } : { kind: 'wrong' }
  }
}
