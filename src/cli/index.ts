import { type Config, ConfigError, loadConfig, SETTING_FLAGS, unknownEnvSettings } from '../config'
import { settingsHelp } from '../config/help'
import { type OpenedContext, openContext } from '../open-context'
import { redactPasswords } from '../lib/redact'
import { VERSION } from '../version'
import { type ParsedArgs, parseCommandLine, stringFlag } from './args'
import { asCliFailure, CliFailure, type CliIo } from './io'
import { BACKUP_USAGE, backupCommand, restoreCommand } from './backup'
import { HEALTH_USAGE, healthCommand } from './health'
import { LINK_USAGE, linkCommand } from './link'
import { MAIL_USAGE, mailCommand } from './mail'
import { READER_USAGE, readerCommand } from './reader'
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
  ${MAIL_USAGE}
  ${READER_USAGE}
  ${VERIFY_USAGE}
  ${BACKUP_USAGE}
  ${STORAGE_USAGE}
  ${DATABASE_USAGE}
  ${HEALTH_USAGE}

Settings: flags beat environment variables, which beat defaults. Every command takes --data. See the README.
${settingsHelp()}`

/**
 * Every command: what it runs on — the opened data dir and database (`context`), or only the settings
 * (`nothing`: restore and the migrations open what they need themselves, restore into an empty data dir) — and
 * its run. A run answers false for "done, but something is wrong" (exit code 1: verify found a problem).
 */
type Command =
  | { opens: 'context'; run: (ctx: OpenedContext, args: ParsedArgs, io: CliIo) => Promise<unknown> }
  | { opens: 'nothing'; run: (config: Config, args: ParsedArgs, io: CliIo) => Promise<unknown> }

const COMMANDS = {
  serve: {
    opens: 'context',
    run: (ctx, args, io) => {
      if (args.positionals.length > 1) throw new CliFailure(`unexpected argument ${JSON.stringify(args.positionals[1])}`, 2)
      return serveCommand(ctx, args, io)
    },
  },
  user: { opens: 'context', run: userCommand },
  token: { opens: 'context', run: tokenCommand },
  link: { opens: 'context', run: linkCommand },
  mail: { opens: 'context', run: mailCommand },
  reader: { opens: 'context', run: readerCommand },
  verify: { opens: 'context', run: verifyCommand },
  backup: { opens: 'context', run: backupCommand },
  restore: { opens: 'nothing', run: restoreCommand },
  storage: { opens: 'nothing', run: storageCommand },
  database: { opens: 'nothing', run: databaseCommand },
  health: { opens: 'nothing', run: healthCommand },
} satisfies Record<string, Command>
type CommandName = keyof typeof COMMANDS

const exitCodeOf = (result: unknown) => (result === false ? 1 : 0)

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
    const name = args.positionals[0] ?? 'serve'
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined
    if (!command) throw new CliFailure(`unknown command "${name}" (see --help)`, 2)

    const config = loadConfig(Object.fromEntries(SETTING_FLAGS.map((flag) => [flag, stringFlag(args, flag)])), env)
    for (const warning of unknownEnvSettings(env)) io.err(`warning: ${warning} is not a pdfshare setting and is ignored`)
    if (command.opens === 'nothing') return exitCodeOf(await command.run(config, args, io))
    const ctx = await openContext(config)
    for (const notice of ctx.notices) io.err(notice)
    try {
      return exitCodeOf(await command.run(ctx, args, io))
    } finally {
      // `serve` closes its context itself, once its requests have finished.
      if (name !== 'serve') ctx.close()
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
