import type { Job, JobHandle, JobStatus, StartPump } from './jobs'

/** The longest wait after failed passes (a poll longer than this waits a poll). */
const MAX_BACKOFF_MS = 60_000

/**
 * Runs one job's passes (jobs.ts): the first at once, then on each nudge, wake-up and poll, and again when work it
 * tracked ends. Nudges while a pass runs are folded into one more pass. A pass that throws is logged and counted;
 * the next waits its poll doubled for each failure in a row (at most a minute, or the poll when that is longer),
 * nudges included, so a database that is down is not asked twice a second. `stop` ends polling and waking, aborts
 * the signal passes were given, and waits for the pass and the tracked work.
 */
export const startPump: StartPump = (job: Job, deps) => {
  const shutdown = new AbortController()
  const inFlight = new Set<Promise<void>>()
  let pass: Promise<void> | undefined
  let again = false
  let nudged = true
  let resumeAt = 0
  let resumeTimer: Timer | undefined
  let stopped = false
  const counts = {
    passes: 0,
    failedPasses: 0,
    lastSuccessAt: null as number | null,
    failingSince: null as number | null,
    failuresInARow: 0,
  }

  const backoffMs = () => Math.min(job.everyMs * 2 ** (counts.failuresInARow - 1), Math.max(job.everyMs, MAX_BACKOFF_MS))
  const failed =
    job.failed ??
    ((error: unknown, retryInMs: number) =>
      deps.log.error(`job ${job.name}: its pass failed; trying again in ${Math.ceil(retryInMs / 1000)} s`, error))

  const runPasses = async () => {
    do {
      again = false
      const asked = nudged
      nudged = false
      try {
        const answer = await job.pass({ signal: shutdown.signal, nudged: asked, inFlight: inFlight.size, track })
        counts.passes++
        counts.lastSuccessAt = deps.now()
        counts.failingSince = null
        counts.failuresInARow = 0
        if (answer === 'more') again = true
      } catch (error) {
        counts.passes++
        counts.failedPasses++
        counts.failuresInARow++
        counts.failingSince ??= deps.now()
        const wait = backoffMs()
        failed(error, wait)
        resumeAt = Date.now() + wait
        resumeTimer = setTimeout(() => {
          resumeTimer = undefined
          nudge()
        }, wait)
        resumeTimer.unref?.()
        return
      }
    } while (again && !stopped)
  }

  /** A pass now, or one more after the pass running; none while backing off (the timer runs it) or stopped. */
  const kick = () => {
    if (stopped) return
    if (pass || Date.now() < resumeAt) {
      again = true
      return
    }
    pass = runPasses().finally(() => {
      pass = undefined
      if (again && !stopped && Date.now() >= resumeAt) kick()
    })
  }

  const track = (work: Promise<void>) => {
    const kept: Promise<void> = work
      .catch((error: unknown) => deps.log.error(`job ${job.name}: work it started failed`, error))
      .finally(() => {
        inFlight.delete(kept)
        kick() // a slot freed
      })
    inFlight.add(kept)
  }

  const nudge = () => {
    nudged = true
    kick()
  }
  const unwake = (job.wakeOn ?? []).map((topic) => deps.onWake(topic, nudge))
  const poll = setInterval(nudge, job.everyMs)
  poll.unref?.()
  kick()

  const status = (): JobStatus => ({
    name: job.name,
    state: stopped ? 'stopped' : Date.now() < resumeAt ? 'backing off' : pass || inFlight.size > 0 ? 'running' : 'idle',
    inFlight: inFlight.size,
    passes: counts.passes,
    failedPasses: counts.failedPasses,
    lastSuccessAt: counts.lastSuccessAt,
    failingSince: counts.failingSince,
  })

  const handle: JobHandle = {
    name: job.name,
    nudge,
    async idle() {
      while (pass || inFlight.size > 0) await Promise.all([pass, ...inFlight])
    },
    async stop() {
      stopped = true
      clearInterval(poll)
      clearTimeout(resumeTimer)
      for (const off of unwake) off()
      shutdown.abort()
      await pass
      await Promise.all(inFlight)
    },
    status,
  }
  return handle
}
