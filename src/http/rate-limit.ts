import { rateLimited } from '../errors'
import type { AppContext } from '../core/context'
import { type RateLimit, rateLimitFor } from '../core/limits/rate-limit'
import { MAX_TRACKED_KEYS, OVERFLOW_COUNTERS, rateLimitHeaders } from '../lib/rate-limiter'

/**
 * Counts a request against `limiter` under `key`: adds the RateLimit-* headers to the response, or throws
 * the 429 (with Retry-After) when the key is over its limit.
 */
export async function applyRateLimit(
  limiter: RateLimit,
  key: string,
  nowMs: number,
  responseHeaders: Record<string, unknown>,
): Promise<void> {
  const decision = await limiter.hit(key, nowMs)
  if (!decision) return
  if (!decision.allowed) throw rateLimited(decision)
  Object.assign(responseHeaders, rateLimitHeaders(decision))
}

/** A limiter whose overflow (see rate-limiter.ts) is written to the log, once per minute at most. */
export function loggedRateLimiter(ctx: AppContext, name: string, perMinute: number): RateLimit {
  return rateLimitFor(ctx, name, {
    perMinute,
    onOverflow: () =>
      ctx.log.error(
        `rate limit ${name}: more than ${MAX_TRACKED_KEYS.toLocaleString('en')} clients this minute; the others share ${OVERFLOW_COUNTERS.toLocaleString('en')} counters until it ends and may be refused early`,
      ),
  })
}
