import { dialectOf } from '../db/database'
import { resolve } from 'node:path'
import type { Config } from '../config'
import type { AppContext } from '../core/context'
import { formatSize } from '../shared/sizes'
import { backupTo } from '../maintenance/backup'
import { restoreFrom } from '../maintenance/restore'
import { allowOnly, type ParsedArgs } from './args'
import { CliFailure, commandHint, type CliIo } from './io'

export const BACKUP_USAGE = `backup DIR                    a consistent snapshot of the database and every PDF (versions too) into
                                DIR (empty or new), safe while the server runs
  restore DIR                   bring a backup back into an empty data dir (checks every PDF's SHA-256)`

function directoryArgument(args: ParsedArgs, command: string): string {
  const [, dir, ...extra] = args.positionals
  if (!dir) throw new CliFailure(`${command} needs a DIR`, 2)
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  return resolve(dir)
}

/**
 * A backup is the embedded database's snapshot and the PDFs beside it. A scaled-out install keeps its data in
 * servers that have their own tools for consistent copies.
 */
const ON_POSTGRES =
  "backup and restore work on the embedded database; on PostgreSQL use pg_dump / pg_restore for the database and your S3 server's tools (or versioning) for the bucket"

export async function backupCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<void> {
  allowOnly(args, 'backup', [])
  const dir = directoryArgument(args, 'backup')
  if (ctx.db.dialect === 'postgres') throw new CliFailure(ON_POSTGRES, 2)
  const started = performance.now()
  const result = await backupTo(ctx, dir)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  io.out(
    `backed up ${result.files} file(s) and ${result.versions ?? 0} previous version(s), ${formatSize(result.bytes)}, to ${dir} in ${seconds} s`,
  )
}

/** Runs without an opened context: the data dir must be empty, so nothing may be created in it first. */
export async function restoreCommand(config: Config, args: ParsedArgs, io: CliIo): Promise<void> {
  allowOnly(args, 'restore', [])
  const dir = directoryArgument(args, 'restore')
  if (dialectOf(config.databaseUrl) === 'postgres') throw new CliFailure(ON_POSTGRES, 2)
  const manifest = await restoreFrom(dir, config)
  const where = config.storage === 's3' ? `${config.dataDir} (PDFs in the S3 bucket ${config.s3Bucket})` : config.dataDir
  io.out(
    `restored ${manifest.files} file(s) and ${manifest.versions ?? 0} previous version(s), ${formatSize(manifest.bytes)}, from the backup of ${manifest.createdAt} into ${where}`,
  )
  io.err(`next: ${commandHint(config.dataDir, 'verify')}, then start the server`)
}
