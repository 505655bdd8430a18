export class QueueFullError extends Error {
  override name = 'QueueFullError'
  constructor() {
    super('too many tasks waiting')
  }
}

/**
 * At most `limit` tasks run at once; the rest wait in order. The queue itself is bounded by `maxQueued`.
 * `load()` tells how many run and wait right now (for metrics).
 */
export function createLimiter(limit: number, maxQueued = 1000) {
  let running = 0
  const queue: (() => void)[] = []
  const run = async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) {
      if (queue.length >= maxQueued) throw new QueueFullError()
      await new Promise<void>((resolve) => queue.push(resolve))
    }
    running++
    try {
      return await task()
    } finally {
      running--
      queue.shift()?.()
    }
  }
  return Object.assign(run, { load: () => ({ running, waiting: queue.length }) })
}

/** Concurrent calls with the same key share one execution (and its result or error). */
export function createSingleFlight<T>() {
  const inFlight = new Map<string, Promise<T>>()
  return function once(key: string, task: () => Promise<T>): Promise<T> {
    const existing = inFlight.get(key)
    if (existing) return existing
    const promise = task().finally(() => inFlight.delete(key))
    inFlight.set(key, promise)
    return promise
  }
}
