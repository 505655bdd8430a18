import { AppError } from '../errors'
import { rateLimitHeaders, type RateLimiter } from '../lib/rate-limiter'

/**
 * Counts a request against `limiter` under `key`: adds the RateLimit-* headers to the response, or throws
 * the 429 (with Retry-After) when the key is over its limit.
 */
export function applyRateLimit(limiter: RateLimiter, key: string, nowMs: number, responseHeaders: Record<string, unknown>): void {
  const decision = limiter.hit(key, nowMs)
  if (!decision) return
  const headers = rateLimitHeaders(decision)
  if (!decision.allowed) {
    throw new AppError(429, 'rate_limited', `Too many requests; retry in ${decision.resetSeconds} s`, headers)
  }
  Object.assign(responseHeaders, headers)
}
