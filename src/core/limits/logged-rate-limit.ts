import { rateLimited } from '../../errors'
import type { AppContext } from '../context'
import { type RateLimit, rateLimitFor } from './rate-limit'
import { MAX_TRACKED_KEYS, OVERFLOW_COUNTERS, type RateDecision, rateLimitHeaders, WINDOW_MS } from '../../lib/rate-limiter'

/**
 * Counts a request against `limiter` under `key`: adds the RateLimit-* headers to the response, or throws
 * the 429 (with Retry-After) when the key is over its limit. Synchronous when the limiter counts in memory
 * (the embedded server); a promise when it counts in the shared database.
 */
export function applyRateLimit(
  limiter: RateLimit,
  key: string,
  nowMs: number,
  responseHeaders: Record<string, unknown>,
): void | Promise<void> {
  const decision = limiter.hit(key, nowMs)
  const apply = (decided: RateDecision | undefined) => {
    if (!decided) return
    if (!decided.allowed) throw rateLimited(decided)
    Object.assign(responseHeaders, rateLimitHeaders(decided))
  }
  return decision instanceof Promise ? decision.then(apply) : apply(decision)
}

/**
 * A limiter whose overflow (see rate-limiter.ts) is written to the log, once per window at most: `perWindow`
 * requests a minute, or an hour with `window: 'hour'`.
 */
export function loggedRateLimiter(ctx: AppContext, name: string, perWindow: number, window: 'minute' | 'hour' = 'minute'): RateLimit {
  return rateLimitFor(ctx, name, {
    perMinute: perWindow,
    windowMs: window === 'hour' ? 3_600_000 : WINDOW_MS,
    onOverflow: () =>
      ctx.log.error(
        `rate limit ${name}: more than ${MAX_TRACKED_KEYS.toLocaleString('en')} clients this ${window}; the others share ${OVERFLOW_COUNTERS.toLocaleString('en')} counters until it ends and may be refused early`,
      ),
  })
}
