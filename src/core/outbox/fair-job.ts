import type { Job } from '../jobs/jobs'
import { type FairCandidate, fairShare } from './fair-share'

export type FairOutbox<T extends { id: string }> = {
  name: string
  /** Deliveries in flight at once. */
  concurrency: number
  /** Deliveries of one target in flight at once (of this process). */
  perTarget: number
  /** How often the outbox is read besides the nudges (rows of other processes, retries coming due). */
  pollMs: number
  /**
   * Work of a pass that a nudge or the poll asked for, done whether or not a slot is free (the notifier routes its
   * events into deliveries); a pass that only fills a freed slot skips it, as nothing new was written.
   */
  beforeClaim?: () => Promise<void>
  /** The due deliveries, oldest first, at most `perTarget` of each target (so one target's backlog hides no other's). */
  candidates: (perTarget: number) => Promise<FairCandidate[]>
  /** Claims the chosen ids (each row re-checked: another process may have taken it); answers those it got. */
  claim: (ids: string[]) => Promise<T[]>
  /** One attempt of a claimed delivery, its result written; `shutdown` is aborted when the job stops. */
  send: (item: T, shutdown: AbortSignal) => Promise<void>
  /** A send that threw (its result could not be written). */
  sendFailed: (error: unknown, item: T) => void
  /** A pass that could not read or claim. */
  passFailed: (error: unknown) => void
}

/**
 * The fair sending of an outbox as a job (the job runner, jobs/pump.ts, does the waking, polling, back-off and
 * stopping): free slots (`concurrency`) go round the owners with due deliveries, then round each owner's targets,
 * oldest first within each, with at most `perTarget` in flight per target (fair-share.ts); each freed slot is
 * filled again at once (the pump runs a pass when tracked work ends), never when a whole batch is done. One
 * owner's receiver that never answers, or their pile of test messages, holds at most `perTarget` slots per target,
 * and never makes another owner's delivery wait its turn behind theirs.
 */
export function fairOutboxJob<T extends { id: string }>(outbox: FairOutbox<T>): Job {
  /** Deliveries in flight per target. */
  const busy = new Map<string, number>()
  const release = (targetId: string) => {
    const left = (busy.get(targetId) ?? 1) - 1
    if (left > 0) busy.set(targetId, left)
    else busy.delete(targetId)
  }
  return {
    name: outbox.name,
    everyMs: outbox.pollMs,
    wakeOn: ['outbox'],
    failed: (error) => outbox.passFailed(error),
    async pass(run) {
      if (run.nudged) await outbox.beforeClaim?.()
      const free = outbox.concurrency - run.inFlight
      if (free <= 0) return
      const candidates = await outbox.candidates(outbox.perTarget)
      const chosen = fairShare(candidates, free, outbox.perTarget, busy)
      if (chosen.length === 0) return
      const targetOf = new Map(candidates.map((candidate) => [candidate.id, candidate.targetId]))
      const claimed = await outbox.claim(chosen)
      for (const item of claimed) {
        const targetId = targetOf.get(item.id)!
        busy.set(targetId, (busy.get(targetId) ?? 0) + 1)
        run.track(
          outbox
            .send(item, run.signal)
            .catch((error: unknown) => outbox.sendFailed(error, item))
            .finally(() => release(targetId)),
        )
      }
      return claimed.length === free ? 'more' : undefined // more may be due
    },
  }
}
