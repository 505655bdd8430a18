import { parseArgs } from 'node:util'
import { CliFailure } from './io'

/** Every flag of every command; each command says which of them it accepts. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  data: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  label: { type: 'string' },
  ttl: { type: 'string' },
  'max-storage': { type: 'string' },
  'max-files': { type: 'string' },
  'delete-files': { type: 'boolean' },
  repair: { type: 'boolean' },
  password: { type: 'boolean' },
  'password-stdin': { type: 'boolean' },
  to: { type: 'string' },
} as const

export type Flag = keyof typeof OPTIONS
export type ParsedArgs = { positionals: string[]; flags: Partial<Record<Flag, string | boolean>> }

export function parseCommandLine(argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
    return { positionals, flags: values }
  } catch (error) {
    throw new CliFailure(`${(error as Error).message.split('\n')[0]} (see --help)`, 2)
  }
}

/** Fails with exit code 2 if a flag was given that the command does not take. */
export function allowOnly(args: ParsedArgs, command: string, allowed: Flag[]): void {
  const always: Flag[] = ['help', 'version', 'data']
  for (const flag of Object.keys(args.flags) as Flag[]) {
    if (!always.includes(flag) && !allowed.includes(flag)) {
      throw new CliFailure(`${command} does not take --${flag} (see --help)`, 2)
    }
  }
}

export function stringFlag(args: ParsedArgs, flag: Flag): string | undefined {
  const value = args.flags[flag]
  return typeof value === 'string' ? value : undefined
}
