/**
 * Fixed-window request counter per key (a token id, a client IP). In-process and approximate by design:
 * it protects one instance from a runaway client; it is not an accounting system. The number of keys
 * tracked is bounded, so a flood of distinct keys cannot grow memory without limit.
 */
export type RateDecision = {
  allowed: boolean
  /** Requests allowed per window. */
  limit: number
  /** Requests left in the current window after this one. */
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

export type RateLimiter = { hit(key: string, nowMs: number): RateDecision | undefined }

export const WINDOW_MS = 60_000

/** `hit` returns undefined when the limit is off (perMinute 0). */
export function createRateLimiter(options: { perMinute: number; maxKeys?: number }): RateLimiter {
  const maxKeys = options.maxKeys ?? 100_000
  let windowStart = 0
  let counts = new Map<string, number>()

  return {
    hit(key, nowMs) {
      if (options.perMinute <= 0) return undefined
      if (nowMs - windowStart >= WINDOW_MS) {
        windowStart = nowMs - (nowMs % WINDOW_MS)
        counts = new Map()
      }
      const used = (counts.get(key) ?? 0) + 1
      if (counts.size < maxKeys || counts.has(key)) counts.set(key, used)
      const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000))
      return { allowed: used <= options.perMinute, limit: options.perMinute, remaining: Math.max(0, options.perMinute - used), resetSeconds }
    },
  }
}

/**
 * The RateLimit-* headers (IETF httpapi draft, the widely deployed "Limit / Remaining / Reset" form), plus
 * Retry-After when refused.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  }
  if (!decision.allowed) headers['retry-after'] = String(decision.resetSeconds)
  return headers
}
