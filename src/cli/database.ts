import { eq } from 'drizzle-orm'
import type { Config } from '../config'
import { loadSigningSecret } from '../data-dir/signing-secret'
import { configuredStorage } from '../data-dir/blobs'
import { dialectOf } from '../db/database'
import { copyDatabaseTo } from '../maintenance/migrate-database'
import { redactPasswords } from '../lib/redact'
import { openContext } from '../open-context'
import { allowOnly, type ParsedArgs, stringFlag } from './args'
import { CliFailure, type CliIo } from './io'
import { acquireServerLock, serverHoldingLock } from './server-lock'

export const DATABASE_USAGE = `database migrate --to postgres://… | --to - | (PDFSHARE_MIGRATE_TO)
                                copy the embedded database into a new, empty PostgreSQL database (every row,
                                the signing secret too); the embedded file is only read; run it with the
                                server stopped, then set PDFSHARE_DATABASE_URL. With --to - the URL is the
                                first line of stdin; PDFSHARE_MIGRATE_TO keeps it out of argv as well`

/**
 * Where to copy: `--to URL`, `--to -` (the first line of stdin: `pdfshare database migrate --to - < url.txt`), or
 * PDFSHARE_MIGRATE_TO. A URL in argv is visible to every local user in `ps` and stays in shell history.
 */
async function targetUrl(flag: string | undefined, config: Config): Promise<string | undefined> {
  if (flag === '-') return (await Bun.stdin.text()).split(/\r?\n/)[0]?.trim()
  return flag ?? config.migrateTo
}

/**
 * `database migrate --to postgres://…`: moves an embedded install's metadata to PostgreSQL, the step before
 * running several instances. Holds the server lock meanwhile, so no server changes the file being copied.
 */
export async function databaseCommand(config: Config, args: ParsedArgs, io: CliIo): Promise<void> {
  const [, action, ...extra] = args.positionals
  if (action !== 'migrate')
    throw new CliFailure(action ? `unknown command "database ${action}"` : 'database needs a subcommand: migrate', 2)
  allowOnly(args, 'database migrate', ['to'])
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  const to = await targetUrl(stringFlag(args, 'to'), config)
  if (!to || dialectOf(to) !== 'postgres' || !URL.canParse(to)) {
    throw new CliFailure(
      'database migrate needs the PostgreSQL URL: --to - (and the URL on stdin), PDFSHARE_MIGRATE_TO, or --to postgres://user:password@host:5432/database',
      2,
    )
  }
  if (dialectOf(config.databaseUrl) === 'postgres') {
    throw new CliFailure('PDFSHARE_DATABASE_URL already names a PostgreSQL database; database migrate copies from the embedded one', 2)
  }
  const pid = await serverHoldingLock(config.dataDir)
  if (pid !== undefined) throw new CliFailure(`a server (pid ${pid}) is running on this data dir; stop it before database migrate`, 1)

  const ctx = await openContext(config)
  try {
    for (const notice of ctx.notices) io.err(notice)
    const release = await acquireServerLock(config.dataDir)
    try {
      const started = performance.now()
      // A configured secret stays in the configuration; a generated one moves into the database with the rest.
      const { secret } = await loadSigningSecret(ctx.layout, config.jwtSecret)
      const copied = await copyDatabaseTo(ctx, to, { signingSecret: config.jwtSecret ? undefined : secret })
      // The bucket carries the install's id for instances that start with a data dir of their own.
      const { idHolder } = configuredStorage(ctx.layout, config)
      const { meta } = ctx.db.tables
      const [row] = await ctx.db.orm.select().from(meta).where(eq(meta.key, 'data_dir_id'))
      const id = row?.value
      if (config.storage === 's3' && id && !(await idHolder.read())) await idHolder.write(id)
      for (const { table, rows } of copied) io.out(`${table}: ${rows} row(s)`)
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      io.out(
        `copied ${copied.reduce((sum, table) => sum + table.rows, 0)} row(s) to PostgreSQL in ${seconds} s; ${ctx.config.databaseUrl} was only read`,
      )
      io.err(
        config.storage === 's3'
          ? 'next: set PDFSHARE_DATABASE_URL to the PostgreSQL URL and start the server (or several: see "Growing past one machine")'
          : 'next: set PDFSHARE_DATABASE_URL to the PostgreSQL URL and start the server; for several instances, move the PDFs into a bucket too (storage migrate --to s3)',
      )
    } finally {
      await release()
    }
  } catch (error) {
    if (
      error instanceof Error &&
      (error.name === 'PostgresError' || /ECONNREFUSED|password authentication|does not exist/i.test(error.message))
    ) {
      throw new CliFailure(`cannot use the PostgreSQL database ${redactPasswords(to)}: ${redactPasswords(error.message)}`, 1)
    }
    throw error
  } finally {
    ctx.close()
  }
}
