/**
 * Fixed-window request counter per key (a user id, a client address, a user name). In-process and approximate
 * by design: it protects one instance from a runaway client; it is not an accounting system.
 *
 * Memory is bounded and the limiter never fails open. The first `maxKeys` keys of a window are counted
 * exactly; once the table is full, every further key is counted in one of `OVERFLOW_COUNTERS` shared
 * counters picked by a keyed hash. A shared counter only ever counts more than the key's own requests, so a
 * flood of new keys (many addresses, many names) makes the limit stricter for newcomers, never looser: it
 * errs toward limiting. `onOverflow` is told once per window, so the operator can see that it happened.
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

export type RateLimiter = {
  /** Counts one request for `key` and decides; undefined when the limit is off (perMinute 0). */
  hit(key: string, nowMs: number): RateDecision | undefined
  /**
   * Takes back one request counted by `hit` at `countedAtMs` (a sign-in that turned out to be right). Nothing
   * happens once the window has moved on, and a count never goes below zero.
   */
  undo(key: string, countedAtMs: number): void
  /** Keys counted exactly in the current window (at most `maxKeys`). */
  trackedKeys(): number
}

export const WINDOW_MS = 60_000
/** Keys counted exactly per window: a bounded table per limiter (BENCHMARKS.md, Design measurements). */
export const MAX_TRACKED_KEYS = 100_000
/** Shared counters for the keys beyond `maxKeys`: 16 KiB. */
export const OVERFLOW_COUNTERS = 4096

/**
 * `perMinute` requests per window of `windowMs` (one minute unless given: a longer window, such as the
 * share-link password's quarter of an hour, allows `perMinute` per that window).
 */
export function createRateLimiter(options: {
  perMinute: number
  windowMs?: number
  maxKeys?: number
  onOverflow?: () => void
}): RateLimiter {
  const maxKeys = options.maxKeys ?? MAX_TRACKED_KEYS
  const windowMs = options.windowMs ?? WINDOW_MS
  // A per-process seed: which keys share a counter cannot be predicted from outside.
  const seed = BigInt(Math.floor(Math.random() * 2 ** 32))
  let windowStart = 0
  let counts = new Map<string, number>()
  let shared = new Uint32Array(OVERFLOW_COUNTERS)
  let overflowed = false

  const startWindowAt = (nowMs: number) => {
    if (nowMs - windowStart < windowMs) return
    windowStart = nowMs - (nowMs % windowMs)
    counts = new Map()
    shared = new Uint32Array(OVERFLOW_COUNTERS)
    overflowed = false
  }
  const counterOf = (key: string) => Number(Bun.hash.wyhash(key, seed) % BigInt(OVERFLOW_COUNTERS))

  return {
    hit(key, nowMs) {
      if (options.perMinute <= 0) return undefined
      startWindowAt(nowMs)
      let used: number
      const known = counts.get(key)
      if (known !== undefined || counts.size < maxKeys) {
        used = (known ?? 0) + 1
        counts.set(key, used)
      } else {
        if (!overflowed) {
          overflowed = true
          options.onOverflow?.()
        }
        const counter = counterOf(key)
        used = Math.min(shared[counter]! + 1, 0xffff_ffff)
        shared[counter] = used
      }
      const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000))
      return {
        allowed: used <= options.perMinute,
        limit: options.perMinute,
        remaining: Math.max(0, options.perMinute - used),
        resetSeconds,
      }
    },
    undo(key, countedAtMs) {
      if (options.perMinute <= 0 || countedAtMs < windowStart || countedAtMs - windowStart >= windowMs) return
      // A key stays in the table at zero: removing it would let a key counted in a shared counter move into
      // the table and start again from nothing.
      const known = counts.get(key)
      if (known !== undefined) counts.set(key, Math.max(0, known - 1))
      else if (counts.size >= maxKeys) {
        const counter = counterOf(key)
        shared[counter] = Math.max(0, shared[counter]! - 1)
      }
    },
    trackedKeys: () => counts.size,
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
