import { MAX_TRACKED_KEYS, OVERFLOW_COUNTERS, type RateLimiter, WINDOW_MS } from './rate-limiter'

/**
 * A window is counted in this many steps: a request is judged by the requests of the current step and the
 * SLIDING_STEPS before it, so at most `perMinute` requests fall in any window-long stretch of time (a fixed window
 * lets twice that through around its turn: a full window's worth just before it, another just after).
 */
export const SLIDING_STEPS = 6

/** The requests of one key (or one overflow counter) per step: a ring over the last SLIDING_STEPS + 1 steps. */
type Steps = { last: number; counts: Uint32Array }

/** Moves a ring on to `step`: the steps it passes, and those that fell out of the span, are emptied. */
function advance(steps: Steps, step: number): void {
  const size = steps.counts.length
  if (step - steps.last >= size) steps.counts.fill(0)
  else for (let s = steps.last + 1; s <= step; s++) steps.counts[s % size] = 0
  steps.last = Math.max(steps.last, step)
}
const total = (steps: Steps) => steps.counts.reduce((sum, count) => sum + count, 0)

/**
 * Seconds until a request would be allowed again (`refused`), or until the oldest counted request leaves the
 * span: the steps leave one by one, oldest first.
 */
function secondsUntilRoom(steps: Steps, stepMs: number, nowMs: number, limit: number, refused: boolean): number {
  const size = steps.counts.length
  let left = total(steps)
  for (let s = steps.last - size + 1; s <= steps.last; s++) {
    const count = steps.counts[((s % size) + size) % size]!
    if (count === 0) continue
    left -= count
    if (!refused || left < limit) return Math.max(1, Math.ceil(((s + size) * stepMs - nowMs) / 1000))
  }
  return 1
}

/**
 * The sliding twin of createRateLimiter (rate-limiter.ts, same contract): `perMinute` requests in any `windowMs`,
 * counted in SLIDING_STEPS steps per window. Bounded the same way: `maxKeys` keys counted exactly, the others in
 * OVERFLOW_COUNTERS shared counters (which only ever count more, so a flood of keys makes it stricter, never
 * looser). Keys whose requests have all left the span are dropped once per window, or when the table is full.
 */
export function createSlidingRateLimiter(options: {
  perMinute: number
  windowMs?: number
  maxKeys?: number
  onOverflow?: () => void
}): RateLimiter {
  const maxKeys = options.maxKeys ?? MAX_TRACKED_KEYS
  const stepMs = (options.windowMs ?? WINDOW_MS) / SLIDING_STEPS
  const seed = BigInt(Math.floor(Math.random() * 2 ** 32))
  const keys = new Map<string, Steps>()
  const overflow = new Map<number, Steps>()
  let sweptAt = 0
  let overflowedAt = Number.NEGATIVE_INFINITY

  const fresh = (step: number): Steps => ({ last: step, counts: new Uint32Array(SLIDING_STEPS + 1) })
  const counterOf = (key: string) => Number(Bun.hash.wyhash(key, seed) % BigInt(OVERFLOW_COUNTERS))
  /** Drops the keys with nothing left in the span. */
  const sweep = (step: number) => {
    sweptAt = step
    for (const [key, steps] of keys) if (step - steps.last > SLIDING_STEPS) keys.delete(key)
  }
  /** The counts a new request of `key` goes into: its own, or (the table full) its overflow counter's. */
  const countsFor = (key: string, step: number): Steps => {
    if (step - sweptAt >= SLIDING_STEPS) sweep(step)
    const known = keys.get(key)
    if (known) return known
    if (keys.size >= maxKeys && sweptAt !== step) sweep(step)
    if (keys.size < maxKeys) {
      const steps = fresh(step)
      keys.set(key, steps)
      return steps
    }
    if (step - overflowedAt >= SLIDING_STEPS) {
      overflowedAt = step
      options.onOverflow?.()
    }
    const counter = counterOf(key)
    const shared = overflow.get(counter) ?? fresh(step)
    overflow.set(counter, shared)
    return shared
  }

  return {
    hit(key, nowMs) {
      if (options.perMinute <= 0) return undefined
      const steps = countsFor(key, Math.floor(nowMs / stepMs))
      // A request stamped a little before the last one (a clock read earlier) counts in the newest step.
      const step = Math.max(Math.floor(nowMs / stepMs), steps.last)
      advance(steps, step)
      const at = step % steps.counts.length
      steps.counts[at] = Math.min(steps.counts[at]! + 1, 0xffff_ffff)
      const used = total(steps)
      const allowed = used <= options.perMinute
      return {
        allowed,
        limit: options.perMinute,
        remaining: Math.max(0, options.perMinute - used),
        resetSeconds: secondsUntilRoom(steps, stepMs, nowMs, options.perMinute, !allowed),
      }
    },
    undo(key, countedAtMs) {
      if (options.perMinute <= 0) return
      const step = Math.floor(countedAtMs / stepMs)
      // As in the fixed limiter: a key not in the table was counted in its overflow counter only once the table was full.
      const steps = keys.get(key) ?? (keys.size >= maxKeys ? overflow.get(counterOf(key)) : undefined)
      if (!steps || step > steps.last || steps.last - step > SLIDING_STEPS) return
      const at = step % steps.counts.length
      steps.counts[at] = Math.max(0, steps.counts[at]! - 1)
    },
    trackedKeys: () => keys.size,
  }
}
