import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'

export type WrkResult = { rps: number; requests: number; p50: number; p99: number; errors: number }

/**
 * Runs Debian's wrk pinned to `cpu` against `url` for `seconds`. `rate` (requests/s in total) paces every
 * connection with a Lua delay, to read latency at a given load instead of at saturation. `script` is extra
 * Lua for the request (e.g. a changing User-Agent).
 */
export function wrk(options: {
  url: string
  connections: number
  seconds: number
  cpu: number
  headers?: Record<string, string>
  rate?: number
  script?: string
}): WrkResult {
  const lua = [options.script ?? '']
  if (options.rate) lua.push(`function delay() return ${((options.connections * 1000) / options.rate).toFixed(3)} end`)
  const scriptPath = join(tmpdir(), `pdfshare-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`)
  writeFileSync(scriptPath, lua.join('\n'))
  const args = [
    'taskset',
    '-c',
    String(options.cpu),
    'wrk',
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    '-s',
    scriptPath,
  ]
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`)
  args.push(options.url)
  const out = Bun.spawnSync(args).stdout.toString()
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)
  const errors =
    Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
    Number(
      /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(out)
        ?.slice(1)
        .reduce((a, b) => a + Number(b), 0) ?? 0,
    )
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
  return { rps, requests, p50: latencyMs(out, '50%'), p99: latencyMs(out, '99%'), errors }
}

function latencyMs(out: string, percentile: string): number {
  const match = new RegExp(`${percentile}\\s+([\\d.]+)(us|ms|s)`).exec(out)
  if (!match) return NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

let visitorRuns = 0

/**
 * Lua: every request claims to be a different browser, so every page view is a new visitor to count. Each
 * call gives a new prefix: a later run must not repeat an earlier run's visitors (they would be repeats).
 * Each also comes from its own address (X-Forwarded-For, trusted by the benchmark's server), so the bound on
 * views per address is measured without limiting anything.
 */
export function distinctVisitors(): string {
  const run = `${process.pid}.${++visitorRuns}`
  return `counter = 0
request = function()
  counter = counter + 1
  wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) Firefox/${run}." .. counter
  wrk.headers["X-Forwarded-For"] = "10." .. (math.floor(counter / 65536) % 256) .. "." .. (math.floor(counter / 256) % 256) .. "." .. (counter % 256)
  return wrk.format()
end`
}
