import type { Logger } from '../../log'
import type { JobHandle, Jobs, WakeTopic } from './jobs'
import { startPump } from './pump'

/**
 * The jobs of one opened context (`ctx.jobs`, jobs.ts says what each verb does). Wake-ups go to the pumps
 * subscribed to their topic; the running pumps are kept here, and nowhere else, until they stop.
 */
export function createJobs(deps: { log: Logger; now: () => number }): Jobs {
  const listeners = new Map<WakeTopic, Set<() => void>>()
  const running = new Map<JobHandle, true>()
  const jobs: Jobs = {
    wake(topic) {
      for (const listener of listeners.get(topic) ?? []) listener()
    },
    onWake(topic, listener) {
      const set = listeners.get(topic) ?? new Set()
      listeners.set(topic, set)
      set.add(listener)
      return () => set.delete(listener)
    },
    start(job) {
      const handle = startPump(job, { log: deps.log, now: deps.now, onWake: jobs.onWake })
      running.set(handle, true)
      const stop = handle.stop
      return Object.assign(handle, {
        async stop() {
          running.delete(handle)
          await stop()
        },
      })
    },
    list: () => [...running.keys()].map((handle) => handle.status()),
    async stopAll() {
      await Promise.all([...running.keys()].map((handle) => handle.stop()))
    },
  }
  return jobs
}
