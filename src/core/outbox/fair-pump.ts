import { type FairCandidate, fairShare } from './fair-share'

export type FairPumpOptions<T extends { id: string }> = {
  /** Deliveries in flight at once. */
  concurrency: number
  /** Deliveries of one target in flight at once (of this process). */
  perTarget: number
  /** How often the outbox is read besides the nudges (rows of other processes, retries coming due). */
  pollMs: number
  /** Registers the nudge that commits writing rows give; answers the unregistering function. */
  wakeOn: (nudge: () => void) => () => void
  /**
   * Work of a pass that a nudge or the poll asked for, done whether or not a slot is free (the notifier routes its
   * events into deliveries); a pass that only fills a freed slot skips it, as nothing new was written.
   */
  beforeClaim?: () => Promise<void>
  /** The due deliveries, oldest first, at most `perTarget` of each target (so one target's backlog hides no other's). */
  candidates: (perTarget: number) => Promise<FairCandidate[]>
  /** Claims the chosen ids (each row re-checked: another process may have taken it); answers those it got. */
  claim: (ids: string[]) => Promise<T[]>
  /** One attempt of a claimed delivery, its result written; `shutdown` is aborted when the pump stops. */
  send: (item: T, shutdown: AbortSignal) => Promise<void>
  /** A send that threw (`item`: its result could not be written), or a pass that could not read or claim. */
  failed: (error: unknown, item?: T) => void
}

export type FairPump = {
  /** Look for due deliveries now. */
  nudge(): void
  /** Resolves once nothing is being claimed or sent (for tests). */
  idle(): Promise<void>
  /** Stops polling, aborts the attempts in flight and waits until their results are written. */
  stop(): Promise<void>
}

/**
 * The fair sending of an outbox, without knowing its tables: free slots (`concurrency`) go round the owners
 * with due deliveries, then round each owner's targets, oldest first within each, with at most `perTarget` in
 * flight per target (fair-share.ts); each freed slot is filled again at once, never when a whole batch is done.
 * One owner's receiver that never answers, or their pile of test messages, holds at most `perTarget` slots per
 * target, and never makes another owner's delivery wait its turn behind theirs. Nudges while a pass runs are
 * folded into one more pass.
 */
export function startFairPump<T extends { id: string }>(options: FairPumpOptions<T>): FairPump {
  const shutdown = new AbortController()
  const inFlight = new Set<Promise<void>>()
  /** Deliveries in flight per target. */
  const busy = new Map<string, number>()
  let pumping: Promise<void> | undefined
  let again = false
  /** A nudge or the poll came since `beforeClaim` last ran. */
  let nudged = true

  const release = (targetId: string) => {
    const left = (busy.get(targetId) ?? 1) - 1
    if (left > 0) busy.set(targetId, left)
    else busy.delete(targetId)
  }

  const claimAndStart = async () => {
    if (nudged) {
      nudged = false
      await options.beforeClaim?.()
    }
    const free = options.concurrency - inFlight.size
    if (free <= 0) return
    const candidates = await options.candidates(options.perTarget)
    const chosen = fairShare(candidates, free, options.perTarget, busy)
    if (chosen.length === 0) return
    const targetOf = new Map(candidates.map((candidate) => [candidate.id, candidate.targetId]))
    const claimed = await options.claim(chosen)
    for (const item of claimed) {
      const targetId = targetOf.get(item.id)!
      busy.set(targetId, (busy.get(targetId) ?? 0) + 1)
      const running: Promise<void> = options
        .send(item, shutdown.signal)
        .catch((error: unknown) => options.failed(error, item))
        .finally(() => {
          release(targetId)
          inFlight.delete(running)
          fill()
        })
      inFlight.add(running)
    }
    if (claimed.length === free) again = true // more may be due
  }

  /** A pass to fill free slots, or one more after the running pass. */
  const fill = () => {
    if (shutdown.signal.aborted) return
    if (pumping) {
      again = true
      return
    }
    pumping = (async () => {
      try {
        do {
          again = false
          await claimAndStart()
        } while (again && !shutdown.signal.aborted)
      } catch (error) {
        options.failed(error)
      } finally {
        pumping = undefined
      }
    })()
  }

  const nudge = () => {
    nudged = true
    fill()
  }
  const unwake = options.wakeOn(nudge)
  const poll = setInterval(nudge, options.pollMs)
  poll.unref()
  fill()

  return {
    nudge,
    async idle() {
      while (pumping || inFlight.size > 0) await Promise.all([pumping, ...inFlight])
    },
    async stop() {
      clearInterval(poll)
      unwake()
      shutdown.abort()
      await pumping
      await Promise.all(inFlight)
    },
  }
}
