import type { AppContext } from '../context'

type Waker = () => void

/**
 * The in-process nudge from a commit that wrote outbox rows to the dispatcher of the same database, so a
 * delivery starts at once instead of at the next poll. Keyed by the opened database (`ctx.db`): every
 * context copy of one process shares it, and nothing is kept once the database is gone. A process without a
 * dispatcher (a CLI command) nudges nobody; the server's poll still finds the rows.
 */
const wakers = new WeakMap<object, Set<Waker>>()

/** Call after a committed batch that may have enqueued deliveries. Cheap; never throws. */
export function outboxWritten(ctx: Pick<AppContext, 'db'>): void {
  for (const wake of wakers.get(ctx.db) ?? []) wake()
}

/** Registers a dispatcher's wake-up; returns the unregistering function. */
export function onOutboxWritten(ctx: Pick<AppContext, 'db'>, wake: Waker): () => void {
  const set = wakers.get(ctx.db) ?? new Set<Waker>()
  wakers.set(ctx.db, set)
  set.add(wake)
  return () => set.delete(wake)
}
