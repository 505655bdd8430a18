/**
 * The per-request metrics, counted in plain maps and numbers and turned into prom-client's shape only when
 * Prometheus asks. prom-client's own labelled counter and histogram hash their label sets on every call:
 * measured at 1–4 µs per request (a counter and a histogram), next to hot paths of 5–30 µs; this costs a map
 * lookup and a few additions (docs/operations.md, Metrics).
 */
export type RequestSeries = {
  record(method: string, route: string, status: number, seconds: number): void
  /** Metrics for a prom-client registry (`registry.registerMetric`): the counter, then the histogram. */
  metrics: CollectedMetric[]
}

/** What prom-client's registry reads from a metric (the same shape its own metrics give). */
export type CollectedMetric = {
  name: string
  help: string
  get(): {
    name: string
    help: string
    type: 'counter' | 'histogram'
    values: { value: number; labels: Record<string, string | number>; metricName?: string }[]
    aggregator: 'sum'
  }
}

/** (route, method) pairs kept; route patterns × methods stay far below it, anything past it is counted as `other`. */
const MAX_SERIES = 4096

type Timing = { perBucket: Float64Array; sum: number; count: number; byStatus: Map<number, number> }

export function requestSeries(options: { counter: string; histogram: string; buckets: number[] }): RequestSeries {
  const { buckets } = options
  // route → method → its timing and counts by status: lookups by the strings as they come, no key is built.
  const routes = new Map<string, Map<string, Timing>>()
  let series = 0

  const timingOf = (method: string, route: string): Timing => {
    let methods = routes.get(route)
    if (!methods) {
      if (series >= MAX_SERIES && route !== 'other') return timingOf(method, 'other')
      methods = new Map()
      routes.set(route, methods)
    }
    let timing = methods.get(method)
    if (!timing) {
      if (series >= MAX_SERIES && route !== 'other') return timingOf(method, 'other')
      series++
      timing = { perBucket: new Float64Array(buckets.length + 1), sum: 0, count: 0, byStatus: new Map() }
      methods.set(method, timing)
    }
    return timing
  }
  const each = <T>(visit: (method: string, route: string, timing: Timing) => T[]): T[] =>
    [...routes].flatMap(([route, methods]) => [...methods].flatMap(([method, timing]) => visit(method, route, timing)))

  return {
    record(method, route, status, seconds) {
      const timing = timingOf(method, route)
      timing.byStatus.set(status, (timing.byStatus.get(status) ?? 0) + 1)
      let bucket = 0
      while (bucket < buckets.length && seconds > buckets[bucket]!) bucket++
      timing.perBucket[bucket]!++
      timing.sum += seconds
      timing.count++
    },
    metrics: [
      {
        name: options.counter,
        help: COUNTER_HELP,
        get: () => ({
          name: options.counter,
          help: COUNTER_HELP,
          type: 'counter',
          aggregator: 'sum',
          values: each((method, route, timing) =>
            [...timing.byStatus].map(([status, value]) => ({ value, labels: { method, route, status: String(status) } })),
          ),
        }),
      },
      {
        name: options.histogram,
        help: HISTOGRAM_HELP,
        get: () => ({
          name: options.histogram,
          help: HISTOGRAM_HELP,
          type: 'histogram',
          aggregator: 'sum',
          values: each((method, route, { perBucket, sum, count }) => {
            let cumulative = 0
            const lines = [...buckets, '+Inf'].map((le, i) => {
              cumulative += perBucket[i]!
              return { value: cumulative, labels: { method, route, le }, metricName: `${options.histogram}_bucket` }
            })
            return [
              ...lines,
              { value: sum, labels: { method, route }, metricName: `${options.histogram}_sum` },
              { value: count, labels: { method, route }, metricName: `${options.histogram}_count` },
            ]
          }),
        }),
      },
    ],
  }
}

const COUNTER_HELP = 'Answered requests by route pattern, method and status'
const HISTOGRAM_HELP = 'Time from a request to its answer by route pattern and method'
