const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** The wait after the 1st, 2nd… failed attempt; the last one repeats. */
export const RETRY_DELAYS_MS = [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR]

/** A delivery (a webhook's, a mail's) is retried for this long after its event, then marked failed. */
export const RETRY_WINDOW_MS = 24 * HOUR

/**
 * When to try a delivery again after `attempts` failed attempts, or null when it has had its day: the next
 * delay of the schedule, but never later than the end of the window, so the last attempt falls on its edge.
 */
export function nextAttemptAt(input: { createdAt: number; attempts: number; now: number }): number | null {
  const end = input.createdAt + RETRY_WINDOW_MS
  if (input.now >= end) return null
  const delay = RETRY_DELAYS_MS[Math.min(Math.max(input.attempts, 1), RETRY_DELAYS_MS.length) - 1]!
  return Math.min(input.now + delay, end)
}
