import { ConfigError, loadConfig, SETTING_FLAGS, unknownEnvSettings } from '../config'
import { settingsHelp } from '../config/help'
import { openContext } from '../open-context'
import { redactPasswords } from '../lib/redact'
import { VERSION } from '../version'
import { parseCommandLine, stringFlag } from './args'
import { asCliFailure, CliFailure, type CliIo } from './io'
import { BACKUP_USAGE, backupCommand, restoreCommand } from './backup'
import { LINK_USAGE, linkCommand } from './link'
import { serveCommand } from './serve'
import { DATABASE_USAGE, databaseCommand } from './database'
import { STORAGE_USAGE, storageCommand } from './storage'
import { TOKEN_USAGE, tokenCommand } from './token'
import { USER_USAGE, userCommand } from './user'
import { VERIFY_USAGE, verifyCommand } from './verify'

const USAGE = `pdfshare ${VERSION}: self-hosted PDF sharing

Usage: pdfshare [command] [flags]

  serve (default)               run the server (takes --port, --host and --public-url)
  ${USER_USAGE}
  ${TOKEN_USAGE}
  ${LINK_USAGE}
  ${VERIFY_USAGE}
  ${BACKUP_USAGE}
  ${STORAGE_USAGE}
  ${DATABASE_USAGE}

Settings: flags beat environment variables, which beat defaults. Every command takes --data. See the README.
${settingsHelp()}`

/** Runs one command line; returns the process exit code. The only caller of loadConfig in production. */
export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  try {
    const args = parseCommandLine(argv)
    if (args.flags.help) {
      io.out(USAGE)
      return 0
    }
    if (args.flags.version) {
      io.out(VERSION)
      return 0
    }
    const command = args.positionals[0] ?? 'serve'
    if (!['serve', 'user', 'token', 'link', 'verify', 'backup', 'restore', 'storage', 'database'].includes(command))
      throw new CliFailure(`unknown command "${command}" (see --help)`, 2)
    if (command === 'serve' && args.positionals.length > 1)
      throw new CliFailure(`unexpected argument ${JSON.stringify(args.positionals[1])}`, 2)

    const config = loadConfig(Object.fromEntries(SETTING_FLAGS.map((flag) => [flag, stringFlag(args, flag)])), env)
    for (const name of unknownEnvSettings(env)) io.err(`warning: ${name} is not a pdfshare setting and is ignored`)
    if (command === 'restore') {
      await restoreCommand(config, args, io)
      return 0
    }
    if (command === 'storage') return (await storageCommand(config, args, io)) ? 0 : 1
    if (command === 'database') {
      await databaseCommand(config, args, io)
      return 0
    }
    const ctx = await openContext(config)
    for (const notice of ctx.notices) io.err(notice)
    if (command === 'serve') {
      await serveCommand(ctx, args, io)
      return 0
    }
    try {
      if (command === 'verify') return (await verifyCommand(ctx, args, io)) ? 0 : 1
      await ({ user: userCommand, token: tokenCommand, link: linkCommand, backup: backupCommand } as const)[
        command as 'user' | 'token' | 'link' | 'backup'
      ](ctx, args, io)
      return 0
    } finally {
      ctx.close()
    }
  } catch (raw) {
    const error = asCliFailure(raw)
    if (error instanceof ConfigError || error instanceof CliFailure) {
      io.err(`pdfshare: ${redactPasswords(error.message)}`)
      return error instanceof CliFailure ? error.exitCode : 2
    }
    throw error
  }
}
