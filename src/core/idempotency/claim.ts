import { and, eq } from 'drizzle-orm'
import type { IdempotencyKeyRow } from '../../db/tables'
import { idempotencyKeyInUse, idempotencyKeyReused } from '../../errors'
import { randomId } from '../../lib/ids'
import type { AppContext } from '../context'

/**
 * How long a claim holds without renewal. The request that holds it renews it every RENEW_MS while it runs, so
 * only a request whose instance died (or lost the database) lets it lapse: a retry then waits this long at most.
 */
export const LEASE_MS = 15_000
export const RENEW_MS = 5_000

/** A user's key as one request sees it: `held` (this request works on it) or `done` (a write's answer is kept). */
export type Claim = { held: HeldClaim } | { done: KeyRow }

/** A key's row: what it was first sent with, its claim, and once done the kept answer. */
export type KeyRow = IdempotencyKeyRow

/** The claim this request holds: the key, and the lease id that proves it is still this request's. */
export type HeldClaim = { userId: string; key: string; request: string; lease: string }

/**
 * Claims `key` for a request (`request`: "METHOD /path"), or finds what another request left there. Refuses
 * with 422 a key first sent with another method or path, and with 409 (Retry-After: when the lease ends) a key
 * another request is still working on. A claim whose lease lapsed (its request's instance died before its write
 * committed) is taken over; an expired key counts as never sent. Each step is one statement, so two instances
 * claiming at once settle in the database: one inserts, the other finds its row.
 */
export async function claimKey(ctx: AppContext, input: { userId: string; key: string; request: string }): Promise<Claim> {
  const { idempotencyKeys } = ctx.db.tables
  const thisKey = and(eq(idempotencyKeys.userId, input.userId), eq(idempotencyKeys.key, input.key))
  // Each turn ends in an answer unless another request changed the row between two statements (then look again).
  for (let turn = 0; turn < 5; turn++) {
    const now = ctx.now()
    const lease = randomId()
    const [claimed] = await ctx.db.orm
      .insert(idempotencyKeys)
      .values({
        userId: input.userId,
        key: input.key,
        request: input.request,
        lease,
        leaseUntil: now + LEASE_MS,
        done: false,
        createdAt: now,
        expiresAt: now + ctx.config.idempotencyTtl * 1000,
      })
      .onConflictDoNothing()
      .returning({ lease: idempotencyKeys.lease })
    if (claimed) return { held: { ...input, lease } }

    const [row] = await ctx.db.orm.select().from(idempotencyKeys).where(thisKey)
    if (!row) continue // pruned or released meanwhile
    const lapsed = row.leaseUntil <= now
    if (row.expiresAt <= now && (row.done || lapsed)) {
      await ctx.db.orm.delete(idempotencyKeys).where(and(thisKey, eq(idempotencyKeys.lease, row.lease)))
      continue
    }
    if (row.request !== input.request) throw idempotencyKeyReused(`it was first sent with ${row.request}`)
    if (row.done) return { done: row }
    if (!lapsed) throw idempotencyKeyInUse(Math.max(1, Math.ceil((row.leaseUntil - now) / 1000)))
    // The request that held it stopped renewing: its write never committed (a commit replaces the claim), so the work is still to do.
    const [taken] = await ctx.db.orm
      .update(idempotencyKeys)
      .set({ lease, leaseUntil: now + LEASE_MS })
      .where(and(thisKey, eq(idempotencyKeys.lease, row.lease), eq(idempotencyKeys.done, false)))
      .returning({ lease: idempotencyKeys.lease })
    if (taken) return { held: { ...input, lease } }
  }
  throw idempotencyKeyInUse(1)
}

/** Moves a held claim's lease on (while its request runs); false when it is no longer this request's. */
export async function renewClaim(ctx: AppContext, claim: HeldClaim): Promise<boolean> {
  const { idempotencyKeys } = ctx.db.tables
  const renewed = await ctx.db.orm
    .update(idempotencyKeys)
    .set({ leaseUntil: ctx.now() + LEASE_MS })
    .where(heldBy(ctx, claim))
    .returning({ lease: idempotencyKeys.lease })
  return renewed.length > 0
}

/** Gives a claim back when its request wrote nothing (refused, failed): the same request may be sent again at once. */
export async function releaseClaim(ctx: AppContext, claim: HeldClaim): Promise<void> {
  await ctx.db.orm.delete(ctx.db.tables.idempotencyKeys).where(heldBy(ctx, claim))
}

/** The key's row as it is now (after a failed write: did it commit after all, or was the key taken over?). */
export async function keyRow(ctx: AppContext, claim: HeldClaim): Promise<KeyRow | undefined> {
  const { idempotencyKeys } = ctx.db.tables
  const [row] = await ctx.db.orm
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key)))
  return row
}

function heldBy(ctx: AppContext, claim: HeldClaim) {
  const { idempotencyKeys } = ctx.db.tables
  return and(
    eq(idempotencyKeys.userId, claim.userId),
    eq(idempotencyKeys.key, claim.key),
    eq(idempotencyKeys.lease, claim.lease),
    eq(idempotencyKeys.done, false),
  )
}
