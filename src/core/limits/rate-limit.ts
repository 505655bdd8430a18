import { hmacSha256Base64url } from '../../lib/hmac'
import { createRateLimiter, type RateDecision } from '../../lib/rate-limiter'
import { createSlidingRateLimiter, SLIDING_STEPS } from '../../lib/sliding-rate-limiter'
import type { AppContext } from '../context'

/**
 * A limit per key (lib/rate-limiter.ts has the rules: a fixed window; lib/sliding-rate-limiter.ts: a sliding one),
 * counted where every instance sees it.
 */
export type RateLimit = {
  /**
   * Counts one request for `key` and decides; undefined when the limit is off (perMinute 0). Counted in memory
   * the decision comes at once, not as a promise: the share page's hook then stays synchronous (measured on
   * its hot path).
   */
  hit(key: string, nowMs: number): RateDecision | undefined | Promise<RateDecision | undefined>
  /** Takes back one request counted by `hit` at `countedAtMs` (e.g. a sign-in that turned out to be right). */
  undo(key: string, countedAtMs: number): Promise<void>
}

export type RateLimitOptions = {
  perMinute: number
  windowMs?: number
  onOverflow?: () => void
  /**
   * At most `perMinute` in any window-long stretch of time, counted in SLIDING_STEPS steps, rather than per window of
   * the clock (which lets twice as many through around its turn). For a budget of costly work (pages drawn).
   */
  sliding?: boolean
}

/**
 * The embedded server (one process) counts in memory, as fast as a Map. Several instances on one PostgreSQL
 * database count in its `rate_counters` table instead, so a client spreading its requests over the instances
 * gets the same budget as against one: one upsert per counted request, READ COMMITTED, so concurrent hits of
 * one key queue on its row and none is lost. `name` tells the limiters apart in the shared table.
 */
export function rateLimitFor(ctx: AppContext, name: string, options: RateLimitOptions): RateLimit {
  const limit = ctx.db.shared ? sharedRateLimit(ctx, name, options) : localRateLimit(options)
  if (!ctx.metrics.enabled) return limit
  // Refusals counted by the limit's name (a constant: bounded label values), keeping a synchronous decision so.
  const counted = (decision: RateDecision | undefined) => {
    if (decision && !decision.allowed) ctx.metrics.rateLimitRefused(name)
    return decision
  }
  return {
    hit(key, nowMs) {
      const decision = limit.hit(key, nowMs)
      return decision instanceof Promise ? decision.then(counted) : counted(decision)
    },
    undo: limit.undo,
  }
}

function localRateLimit(options: RateLimitOptions): RateLimit {
  const local = options.sliding ? createSlidingRateLimiter(options) : createRateLimiter(options)
  return { hit: (key, nowMs) => local.hit(key, nowMs), undo: async (key, countedAtMs) => local.undo(key, countedAtMs) }
}

const HIT = `INSERT INTO "rate_counters" ("key", "window_start", "count") VALUES (?, ?, 1)
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN "rate_counters"."window_start" = excluded."window_start" THEN "rate_counters"."count" + 1 ELSE 1 END,
    "window_start" = excluded."window_start"
  RETURNING "count"`
const UNDO = `UPDATE "rate_counters" SET "count" = "count" - 1 WHERE "key" = ? AND "window_start" = ? AND "count" > 0 RETURNING "count"`
const PRUNE = 'DELETE FROM "rate_counters" WHERE "window_start" < ?'
/** A sliding limit's count: its rows of the steps in the span, and when the oldest of them began. */
const SPAN = `SELECT COALESCE(SUM("count"), 0), MIN("window_start") FROM "rate_counters"
  WHERE "key" IN (${Array.from({ length: SLIDING_STEPS + 1 }, () => '?').join(', ')}) AND "count" > 0`
/** Counters of windows over for this long are deleted, at most once per PRUNE_EVERY_MS per limiter and instance. */
const PRUNE_AFTER_MS = 60 * 60 * 1000
const PRUNE_EVERY_MS = 10 * 60 * 1000
const WINDOW_MS = 60_000

function sharedRateLimit(ctx: AppContext, name: string, options: RateLimitOptions): RateLimit {
  const windowMs = options.windowMs ?? WINDOW_MS
  // Keyed: the table holds no address, user id or name, and the keys of one limiter cannot be told from another's.
  const rowKey = (key: string) => hmacSha256Base64url(ctx.signingKey, `rate limit\n${name}\n${key}`)
  // A sliding limit counts in steps, a row per key and step (its window_start the step's start), and sums the span's rows.
  const stepMs = options.sliding ? windowMs / SLIDING_STEPS : windowMs
  const windowOf = (nowMs: number) => nowMs - (nowMs % stepMs)
  const rowOf = (key: string, start: number) => (options.sliding ? `${rowKey(key)}.${start / stepMs}` : rowKey(key))
  let prunedAt = 0
  return {
    async hit(key, nowMs) {
      if (options.perMinute <= 0) return undefined
      const windowStart = windowOf(nowMs)
      if (nowMs - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = nowMs
        await ctx.db.hot.runGroups([[{ sql: PRUNE, args: [nowMs - PRUNE_AFTER_MS - windowMs] }]])
      }
      const row = await ctx.db.hot.write(HIT, [rowOf(key, windowStart), windowStart])
      let used = Number(row?.[0] ?? 1)
      let resetAt = windowStart + windowMs
      if (options.sliding) {
        const span = Array.from({ length: SLIDING_STEPS + 1 }, (_, back) => rowOf(key, windowStart - back * stepMs))
        const [sum, oldest] = (await ctx.db.hot.get(SPAN, span)) ?? [used, windowStart]
        used = Number(sum)
        // When the oldest counted step leaves the span (a retry may find the next one still too full).
        resetAt = Number(oldest ?? windowStart) + (SLIDING_STEPS + 1) * stepMs
      }
      return {
        allowed: used <= options.perMinute,
        limit: options.perMinute,
        remaining: Math.max(0, options.perMinute - used),
        resetSeconds: Math.max(1, Math.ceil((resetAt - nowMs) / 1000)),
      }
    },
    async undo(key, countedAtMs) {
      if (options.perMinute <= 0) return
      const windowStart = windowOf(countedAtMs)
      await ctx.db.hot.write(UNDO, [rowOf(key, windowStart), windowStart])
    },
  }
}
