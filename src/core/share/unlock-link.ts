import type { AppContext } from '../context'
import type { SharedLink } from '../links/find-shared-link'
import { passwordMatches } from '../passwords/argon2'
import { rateLimitFor } from '../limits/rate-limit'
import { DomainError } from '../../errors'
import { MAX_TRACKED_KEYS } from '../../lib/rate-limiter'
import type { GoneAccess, LinkAccess } from './link-access'

/** Wrong passwords one address may try on one link per window, before it gets 429 until the window ends. */
export const UNLOCK_FAILURES_PER_WINDOW = 10
export const UNLOCK_WINDOW_MS = 15 * 60 * 1000

/**
 * What `POST /s/:slug` (the password page's form) answers: the link is missing or gone; it has no password
 * (`no_form`: no page of it has a form); the password is `wrong`; too many wrong ones came from this address
 * (`rate_limited`); the password checker is full (`busy`); or it is `unlocked`, for its cookie.
 */
export type UnlockDecision =
  | { kind: 'missing' }
  | GoneAccess
  | { kind: 'no_form' }
  | { kind: 'wrong'; link: SharedLink['link'] }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'busy' }
  | { kind: 'unlocked'; link: SharedLink['link'] }

/** `access`: the link as anyone sees it, without a reader's cookies; `address`: the client's, as the limits count it. */
export type UnlockLink = (input: { access: LinkAccess; address: string; password: () => Promise<string> }) => Promise<UnlockDecision>

/**
 * Checks a reader's password for a link (read from the request only for a link that has one). Failures are
 * limited per link and address (an IPv6 /64 is one address): an attempt counts while its password is checked,
 * so parallel guesses cannot overtake the count, and is taken back when it is right or ends without an answer
 * (the hashing queue was full). Passwords are checked in the same bounded argon2 queue as sign-ins.
 */
export function linkUnlocker(ctx: AppContext): UnlockLink {
  const failures = rateLimitFor(ctx, 'of link passwords', {
    perMinute: UNLOCK_FAILURES_PER_WINDOW,
    windowMs: UNLOCK_WINDOW_MS,
    onOverflow: () =>
      ctx.log.error(`rate limit of link passwords: more than ${MAX_TRACKED_KEYS.toLocaleString('en')} link and address pairs this window`),
  })
  return async ({ access, address, password: readPassword }) => {
    if (access.kind !== 'open') return access
    const { link } = access.shared
    if (!link.passwordHash) return { kind: 'no_form' }
    const password = await readPassword()
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
      if (error instanceof DomainError && error.code === 'server_busy') return { kind: 'busy' }
      throw error
    }
    if (right) await failures.undo(key, now)
    return right ? { kind: 'unlocked', link } : { kind: 'wrong', link }
  }
}
