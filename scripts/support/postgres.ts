/**
 * A throwaway PostgreSQL cluster for tests: Debian's postgresql-15 binaries, initdb in a temp dir, pg_ctl on a
 * free loopback port, fsync off (nothing here must survive a crash of the machine). Started lazily once per
 * process and shared by every test file of the run; each caller gets its own database, so tests share no state.
 * Stopped (and its folder removed) when the process exits, also by a kill -9 (a watchdog). About a second to
 * start, ~65 MB on disk. The test command starts one for all its test processes and passes its address in
 * PDFSHARE_TEST_POSTGRES (scripts/test.ts): then that one is used.
 */
import { SQL } from 'bun'
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migratePg } from '../../src/db/pg/migrate'
import { embeddedPgMigrations } from '../../src/db/pg/migrations'
import { watchdog } from './watchdog'

const BIN = process.env.PDFSHARE_PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** `url` is the cluster's `postgres` database; `databaseUrl(name)` another one on it. */
export type PgCluster = { url: string; databaseUrl: (database: string) => string; stop: () => void }

/** Where the test command passes the address (`url`) of the cluster it started for the whole run. */
export const SHARED_POSTGRES = 'PDFSHARE_TEST_POSTGRES'

let shared: Promise<PgCluster> | undefined
let databases = 0

/**
 * A new database on the shared cluster (started on first use): empty, or with `migrated`, a copy of one that has
 * pdfshare's schema (what a test app would otherwise migrate first). `stop()` drops it, closing whatever
 * connections are left; the cluster itself stops when the process exits.
 */
export async function freshPostgres(options: { migrated?: boolean } = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  shared ??= process.env[SHARED_POSTGRES] ? Promise.resolve(clusterAt(process.env[SHARED_POSTGRES])) : startCluster()
  const cluster = await shared
  // Unique among all the processes of a run (pids are reused within one), and never one left by an earlier run.
  const name = `t${process.pid}_${++databases}_${Math.random().toString(36).slice(2, 8)}`
  const template = options.migrated ? ` TEMPLATE "${await migratedTemplate(cluster)}"` : ''
  await asAdmin(cluster, `CREATE DATABASE "${name}"${template}`)
  return { url: cluster.databaseUrl(name), stop: () => asAdmin(cluster, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) }
}

/** Names "the template is being made" among the cluster's advisory locks. */
const TEMPLATE_LOCK = 5_318_008

/**
 * A database of the cluster with every migration applied, made once per cluster and set of migrations (its name
 * says which), for `freshPostgres({ migrated: true })` to copy: a copy takes about as long as an empty database,
 * where running the migrations took another half second of PostgreSQL's CPU for each of the suite's test apps.
 * The first test process to ask makes it, under an advisory lock the others wait on; it is left unconnected, as
 * CREATE DATABASE … TEMPLATE requires.
 */
async function migratedTemplate(cluster: PgCluster): Promise<string> {
  const last = embeddedPgMigrations.at(-1)?.when ?? 0
  const name = `pdfshare_template_${embeddedPgMigrations.length}_${last}`
  const admin = new SQL(cluster.url)
  try {
    await admin`SELECT pg_advisory_lock(${TEMPLATE_LOCK})`
    const [exists] = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`
    if (!exists) {
      const building = `${name}_building_${process.pid}`
      await admin.unsafe(`CREATE DATABASE "${building}"`)
      const client = new SQL(cluster.databaseUrl(building))
      try {
        await migratePg(client)
      } finally {
        await client.close()
      }
      // Renamed once complete: a process killed halfway leaves a database under another name, never a half template.
      await admin.unsafe(`ALTER DATABASE "${building}" RENAME TO "${name}"`)
    }
    await admin`SELECT pg_advisory_unlock(${TEMPLATE_LOCK})`
    return name
  } finally {
    await admin.close()
  }
}

/** The cluster whose `postgres` database is at `url`, started by someone else (who stops it). */
function clusterAt(url: string): PgCluster {
  const databaseUrl = (database: string) => Object.assign(new URL(url), { pathname: `/${database}` }).href
  return { url, databaseUrl, stop: () => {} }
}

async function asAdmin(cluster: PgCluster, statement: string): Promise<void> {
  const admin = new SQL(cluster.url)
  try {
    await admin.unsafe(statement)
  } finally {
    await admin.close()
  }
}

/** Starts a cluster of its own (not the shared one); the caller stops it. */
export async function startCluster(): Promise<PgCluster> {
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(join(BIN, tool))) {
      throw new Error(`PostgreSQL is not installed: ${join(BIN, tool)} is missing. Install Debian's package: apt-get install -y postgresql`)
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-pg-'))
  // initdb refuses to run as root: as root, run the tools as the `postgres` user the Debian package creates.
  const asPostgres = process.getuid?.() === 0
  if (asPostgres) {
    const owner = Bun.spawnSync(['id', '-u', 'postgres'])
    const group = Bun.spawnSync(['id', '-g', 'postgres'])
    if (owner.exitCode !== 0) throw new Error('running as root but there is no `postgres` user: apt-get install -y postgresql')
    chownSync(dir, Number(owner.stdout.toString()), Number(group.stdout.toString()))
  }
  const run = (argv: string[]) => {
    const result = Bun.spawnSync(asPostgres ? ['runuser', '-u', 'postgres', '--', ...argv] : argv, { stdout: 'pipe', stderr: 'pipe' })
    if (result.exitCode !== 0) {
      const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-2000) : ''
      throw new Error(`${argv[0]} failed (${result.exitCode}): ${result.stderr.toString()}${log}`)
    }
  }
  const data = join(dir, 'data')
  let stopped = false
  // Once this process is gone, however it ended (`bun test` fires no 'exit' event): the cluster stopped, its folder removed.
  const pgCtl = `${asPostgres ? 'runuser -u postgres -- ' : ''}"$4" -D "$2" -m immediate -w stop`
  const endWatchdog = watchdog('postgres', `${pgCtl} >/dev/null 2>&1; rm -rf "$3"`, [data, dir, join(BIN, 'pg_ctl')])
  const stop = () => {
    if (stopped) return
    stopped = true
    endWatchdog()
    // immediate: no checkpoint, the cluster is thrown away anyway.
    Bun.spawnSync(
      asPostgres
        ? ['runuser', '-u', 'postgres', '--', join(BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']
        : [join(BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'],
      { stdout: 'ignore', stderr: 'ignore' },
    )
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stop)
  try {
    run([join(BIN, 'initdb'), '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
    // A free port can be taken between the probe and the start: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = freePort()
      // max_connections: each pdfshare process keeps up to 16 (two pools of 8), and a test of several instances
      // runs a few of them at once.
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500`
      try {
        run([join(BIN, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-w', '-o', options, 'start'])
        const databaseUrl = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
        return { url: databaseUrl('postgres'), databaseUrl, stop }
      } catch (error) {
        if (attempt >= 3) throw error
      }
    }
  } catch (error) {
    stop()
    throw error
  }
}

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
