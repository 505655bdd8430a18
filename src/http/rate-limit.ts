import { rateLimited } from '../errors'
import type { Logger } from '../log'
import { createRateLimiter, MAX_TRACKED_KEYS, OVERFLOW_COUNTERS, rateLimitHeaders, type RateLimiter } from '../lib/rate-limiter'

/**
 * Counts a request against `limiter` under `key`: adds the RateLimit-* headers to the response, or throws
 * the 429 (with Retry-After) when the key is over its limit.
 */
export function applyRateLimit(limiter: RateLimiter, key: string, nowMs: number, responseHeaders: Record<string, unknown>): void {
  const decision = limiter.hit(key, nowMs)
  if (!decision) return
  if (!decision.allowed) throw rateLimited(decision)
  Object.assign(responseHeaders, rateLimitHeaders(decision))
}

/** A limiter whose overflow (see rate-limiter.ts) is written to the log, once per minute at most. */
export function loggedRateLimiter(name: string, perMinute: number, log: Logger): RateLimiter {
  return createRateLimiter({
    perMinute,
    onOverflow: () =>
      log.error(
        `rate limit ${name}: more than ${MAX_TRACKED_KEYS.toLocaleString('en')} clients this minute; the others share ${OVERFLOW_COUNTERS.toLocaleString('en')} counters until it ends and may be refused early`,
      ),
  })
}
