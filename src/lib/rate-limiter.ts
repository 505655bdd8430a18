/**
 * Fixed-window request counter per key (a token id, a client IP). In-process and approximate by design:
 * it protects one instance from a runaway client; it is not an accounting system. The number of keys
 * tracked is bounded, so a flood of distinct keys cannot grow memory without limit.
 */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export type RateLimiter = { hit(key: string, nowMs: number): RateDecision }

export function createRateLimiter(options: { perMinute: number; maxKeys?: number }): RateLimiter {
  const windowMs = 60_000
  const maxKeys = options.maxKeys ?? 100_000
  let windowStart = 0
  let counts = new Map<string, number>()

  return {
    hit(key, nowMs) {
      if (options.perMinute <= 0) return { allowed: true }
      if (nowMs - windowStart >= windowMs) {
        windowStart = nowMs - (nowMs % windowMs)
        counts = new Map()
      }
      const used = (counts.get(key) ?? 0) + 1
      if (used > options.perMinute) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)) }
      }
      if (counts.size < maxKeys || counts.has(key)) counts.set(key, used)
      return { allowed: true }
    },
  }
}
