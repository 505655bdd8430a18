import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { rateLimitFor } from '../../src/core/limits/rate-limit'
import { createRateLimiter } from '../../src/lib/rate-limiter'
import { createSlidingRateLimiter, SLIDING_STEPS } from '../../src/lib/sliding-rate-limiter'
import { startTestApp } from '../support/harness'

// The sliding limit (lib/sliding-rate-limiter.ts in memory; core/limits/rate-limit.ts in the shared database):
// at most `perMinute` in ANY minute-long stretch, where a fixed window lets twice that through around its turn.
const MINUTE = 60_000
const STEP = MINUTE / SLIDING_STEPS

/** The most allowed requests in any `MINUTE`-long stretch of `times` (sorted), given which were allowed. */
function busiestMinute(times: number[], allowed: boolean[]): number {
  const kept = times.filter((_, i) => allowed[i])
  let most = 0
  for (let start = 0, end = 0; end < kept.length; end++) {
    while (kept[end]! - kept[start]! >= MINUTE) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

describe('in memory', () => {
  test('a fixed window lets twice the limit through around its turn; the sliding one does not', () => {
    const burst = (limiter: ReturnType<typeof createRateLimiter>) => {
      const times = [...Array.from({ length: 10 }, () => 59_000), ...Array.from({ length: 10 }, () => 61_000)]
      return times.filter((at) => limiter.hit('client', at)!.allowed).length
    }
    expect(burst(createRateLimiter({ perMinute: 10 }))).toBe(20)
    expect(burst(createSlidingRateLimiter({ perMinute: 10 }))).toBe(10)
  })

  test('no minute-long stretch ever holds more than the limit, whatever the times (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 * MINUTE }), { maxLength: 300 }), fc.integer({ min: 1, max: 20 }), (raw, limit) => {
        const times = raw.sort((a, b) => a - b)
        const limiter = createSlidingRateLimiter({ perMinute: limit })
        const allowed = times.map((at) => limiter.hit('client', at)!.allowed)
        expect(busiestMinute(times, allowed)).toBeLessThanOrEqual(limit)
      }),
    )
  })

  test('the budget comes back a step at a time, as the oldest requests leave the span; Retry-After says when', () => {
    const limiter = createSlidingRateLimiter({ perMinute: 4 })
    for (const at of [0, 0, STEP, STEP]) expect(limiter.hit('client', at)!.allowed).toBe(true)
    const refused = limiter.hit('client', 5 * STEP)!
    expect(refused.allowed).toBe(false)
    // The first step's two requests leave the span after SLIDING_STEPS + 1 steps: then there is room again.
    expect(refused.resetSeconds).toBe(((SLIDING_STEPS + 1) * STEP - 5 * STEP) / 1000)
    // Refused requests count too, as in the fixed window: one room, for the step-1 pair and the refused one.
    expect(limiter.hit('client', (SLIDING_STEPS + 1) * STEP)!.allowed).toBe(true)
    expect(limiter.hit('client', (SLIDING_STEPS + 1) * STEP)!.allowed).toBe(false)
    expect(limiter.hit('other client', (SLIDING_STEPS + 1) * STEP)!.allowed).toBe(true)
  })

  test('undo takes back one request of its step; a key past the table shares a counter, stricter never looser', () => {
    const limiter = createSlidingRateLimiter({ perMinute: 2, maxKeys: 1 })
    limiter.hit('a', 0)
    limiter.hit('a', 0)
    expect(limiter.hit('a', 0)!.allowed).toBe(false)
    limiter.undo('a', 0)
    limiter.undo('a', 0)
    expect(limiter.hit('a', 1000)!.allowed).toBe(true)
    // 'a' fills the table: every other key is counted in one of the shared counters.
    let overflowed = 0
    const full = createSlidingRateLimiter({ perMinute: 2, maxKeys: 1, onOverflow: () => overflowed++ })
    full.hit('a', 0)
    expect(full.hit('b', 0)!.allowed).toBe(true)
    expect(full.hit('b', 0)!.allowed).toBe(true)
    expect(full.hit('b', 0)!.allowed).toBe(false)
    expect([full.trackedKeys(), overflowed]).toEqual([1, 1])
    // Once a's requests have left the span, a sweep makes room in the table again.
    expect(full.hit('c', MINUTE + 2 * STEP)!.allowed).toBe(true)
    expect(full.trackedKeys()).toBe(1)
  })
})

describe('as the server counts it (in the shared database with PDFSHARE_TEST_BACKEND=postgres-s3)', async () => {
  const server = await startTestApp()
  test('the same limit: one minute-long stretch never holds more than the limit, across a turn of the clock', async () => {
    const limit = rateLimitFor(server.ctx, 'sliding test', { perMinute: 3, sliding: true })
    const base = Date.UTC(2026, 10, 25, 12, 0, 0)
    const hit = async (at: number) => (await limit.hit('client', base + at))!.allowed
    for (const at of [55_000, 55_000, 58_000]) expect(await hit(at)).toBe(true)
    expect(await hit(61_000)).toBe(false) // a fixed window would start again here
    expect(await hit(110_000)).toBe(false)
    expect(await hit(121_000)).toBe(true) // 66 s later, the step of 50-60 s is out of the span
    await limit.undo('client', base + 121_000)
    expect(await hit(121_000)).toBe(true)
  })
})
