/**
 * A scaled-out install for tests: N pdfshare server processes (from source) on ONE PostgreSQL database and ONE
 * bucket, each with a data dir of its own, behind HAProxy (load-balancer.ts). Every instance trusts one proxy
 * hop (PDFSHARE_TRUST_PROXY=1: the client address is the last X-Forwarded-For entry, the one HAProxy adds) and
 * has the balancer's address as its public URL. The CLI (`cli`) runs with the same settings, as an operator
 * would run it beside the servers.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { s3SettingsOf, sharedCeph } from './ceph'
import { type LoadBalancer, startLoadBalancer } from './load-balancer'
import { freshPostgres } from './postgres'
import { type RunningServer, type RunResult, run, startServer } from './process'

export type Instances = {
  balancer: LoadBalancer
  /** The instance processes, by index (s1 is 0); `restart` replaces an entry. */
  servers: RunningServer[]
  /** The instances' data dirs, by index. */
  dataDirs: string[]
  /** The settings every instance runs with (database, bucket, proxy, public URL) and that `cli` uses. */
  env: Record<string, string>
  /** Runs a pdfshare command on the same database and bucket, with a data dir of its own. */
  cli: (args: string[]) => Promise<RunResult>
  /** kill -9 of one instance; resolves once the process is gone. */
  kill: (index: number) => Promise<void>
  /** Starts a stopped or killed instance again, on its data dir and port (the balancer's config names it). */
  restart: (index: number) => Promise<RunningServer>
  stop: () => Promise<void>
}

let buckets = 0

/**
 * `program`: how to run pdfshare (default: process.ts PDFSHARE_PROGRAM; the bench passes the binary). `install`: the database
 * and bucket settings of an existing install to run on (the test harness's; left in place by `stop`) instead of
 * a fresh database and bucket. `onOutput`: each instance's output as it comes. `requestRules`: see load-balancer.ts.
 */
export async function startInstances(options: {
  count: number
  env?: Record<string, string>
  program?: string[]
  install?: Record<string, string>
  onOutput?: (index: number, stream: 'stdout' | 'stderr', text: string) => void
  requestRules?: string[]
}): Promise<Instances> {
  const program = options.program
  const install = options.install ? { env: options.install, stop: async () => {} } : await freshInstall()
  const balancerPort = freePort()
  const env: Record<string, string> = {
    ...install.env,
    PDFSHARE_TRUST_PROXY: '1',
    PDFSHARE_PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
    ...options.env,
  }
  const dirs = Array.from({ length: options.count + 1 }, () => mkdtempSync(join(tmpdir(), 'pdfshare-instance-')))
  const cliDir = dirs[options.count]!
  const ports: number[] = []
  const serverArgs = (index: number) => ['--data', dirs[index]!, ...(ports[index] ? ['--port', String(ports[index])] : [])]
  const onOutput = options.onOutput
  const serverOptions = (index: number) => ({
    env,
    program,
    onOutput: onOutput && ((stream: 'stdout' | 'stderr', text: string) => onOutput(index, stream, text)),
  })
  const servers: RunningServer[] = []
  const cleanup = async () => {
    await Promise.all(servers.map((server) => (server.proc.exitCode === null ? server.stop() : undefined)))
    await install.stop().catch(() => {})
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
  try {
    // All at once, as after a deploy: the migrations and the shared signing secret must cope.
    servers.push(
      ...(await Promise.all(dirs.slice(0, options.count).map((_, index) => startServer(serverArgs(index), serverOptions(index))))),
    )
    for (const server of servers) ports.push(Number(new URL(server.url).port))
    const balancer = await startLoadBalancer({
      backends: servers.map((server) => server.url),
      port: balancerPort,
      requestRules: options.requestRules,
    })
    return {
      balancer,
      servers,
      dataDirs: dirs.slice(0, options.count),
      env,
      cli: (args) => run([...args, '--data', cliDir], { env, program }),
      async kill(index) {
        servers[index]!.proc.kill('SIGKILL')
        await servers[index]!.proc.exited
      },
      async restart(index) {
        servers[index] = await startServer(serverArgs(index), serverOptions(index))
        return servers[index]!
      },
      async stop() {
        await balancer.stop()
        await cleanup()
      },
    }
  } catch (error) {
    await cleanup()
    throw error
  }
}

/**
 * A fresh database on the throwaway PostgreSQL cluster and a fresh bucket on the shared Ceph gateway. With
 * `migrated`, the database has pdfshare's schema already (for tests that are not about migrating it).
 */
export async function freshInstall(
  options: { migrated?: boolean } = {},
): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const [postgres, gateway] = await Promise.all([freshPostgres(options), sharedCeph()])
  // pids are reused within a run whose test processes share one gateway: the random part keeps names unique.
  const bucket = `pdfshare-lb${process.pid}-${++buckets}-${Math.random().toString(36).slice(2, 8)}`
  await gateway.createBucket(bucket)
  return {
    env: {
      PDFSHARE_DATABASE_URL: postgres.url,
      PDFSHARE_STORAGE: 's3',
      ...s3SettingsOf(gateway, bucket),
      PDFSHARE_S3_PATH_STYLE: 'true',
    },
    stop: postgres.stop,
  }
}

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
