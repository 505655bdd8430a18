import type { Logger } from '../../log'

/** What wakes a job at once, besides its poll: a commit that wrote rows of an outbox (webhooks, mail, notifications). */
export type WakeTopic = 'outbox'

/**
 * One loop beside the server: the outbox senders (webhooks, mail, notifications), the pruners, the sweeps. A job
 * says what one pass does; the pump (pump.ts) runs its passes: at start, on its poll, when a topic it waits for is
 * woken, and again when work it started ends; with a back-off after a pass that failed, and a stop that waits for
 * what is in flight. New features add a job, not a loop.
 */
export type Job = {
  /** Its name in logs, /metrics and /api/health: `webhooks`, `prune visits`, … */
  name: string
  /** How often a pass runs besides the nudges (ms). */
  everyMs: number
  /** Wake-ups that start a pass at once. */
  wakeOn?: readonly WakeTopic[]
  /**
   * One pass. Work it starts and does not wait for (a delivery in flight) goes to `run.track`: the pump keeps it,
   * counts it, waits for it at `idle` and `stop`, and runs another pass when it ends (a slot freed). Answers `more`
   * when it stopped short of what is due (a pass follows at once).
   */
  pass(run: PassContext): Promise<void> | Promise<'more' | undefined>
  /** How a failed pass is told in the log (default: `job NAME: its pass failed; trying again in N s`). */
  failed?: (error: unknown, retryInMs: number) => void
}

export type PassContext = {
  /** Aborted when the job stops: cut attempts short. */
  signal: AbortSignal
  /** A nudge, a wake-up or the poll asked for this pass (not only a freed slot). */
  nudged: boolean
  /** Tracked work in flight now. */
  inFlight: number
  track(work: Promise<void>): void
}

export type JobStatus = {
  name: string
  state: 'idle' | 'running' | 'backing off' | 'stopped'
  /** Tracked work in flight. */
  inFlight: number
  passes: number
  failedPasses: number
  /** When the latest pass ended well, ms since the epoch (null: none yet). */
  lastSuccessAt: number | null
  /** When the passes began to fail, while they do (null: the latest pass was fine). */
  failingSince: number | null
}

export type JobHandle = {
  readonly name: string
  /** Run a pass now (or right after the one running). */
  nudge(): void
  /** Resolves once no pass runs and nothing tracked is in flight (for tests). */
  idle(): Promise<void>
  /** Stops polling and waking, aborts what is in flight and waits for it. */
  stop(): Promise<void>
  status(): JobStatus
}

/**
 * The jobs of one opened context (`ctx.jobs`): where they start, where wake-ups go, where /metrics and
 * /api/health read them, and where they all stop. Nothing about them is kept at module level: two contexts in
 * one process (the tests, `database migrate`) have their own. A context that runs no job (a CLI command) wakes
 * nobody, and the server's poll still finds the rows it wrote.
 */
export type Jobs = {
  /** After a committed write that a job waits for (outbox rows). Cheap; never throws. */
  wake(topic: WakeTopic): void
  /** Subscribes to a topic (the pump does, for `wakeOn`); answers the unsubscribing function. */
  onWake(topic: WakeTopic, listener: () => void): () => void
  /** Starts a job's pump, registered under its name until it stops. */
  start(job: Job): JobHandle
  /** The running jobs' states, by name. */
  list(): JobStatus[]
  /** Stops every running job (`pdfshare serve` at SIGTERM). */
  stopAll(): Promise<void>
}

export type StartPump = (job: Job, deps: { log: Logger; now: () => number; onWake: Jobs['onWake'] }) => JobHandle
