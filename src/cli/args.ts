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
  scope: { type: 'string' },
  team: { type: 'string' },
  admin: { type: 'boolean' },
  'max-storage': { type: 'string' },
  'max-files': { type: 'string' },
  'delete-files': { type: 'boolean' },
  repair: { type: 'boolean' },
  password: { type: 'boolean' },
  'password-stdin': { type: 'boolean' },
  to: { type: 'string' },
  user: { type: 'string' },
} as const

export type Flag = keyof typeof OPTIONS
export type ParsedArgs = { positionals: string[]; flags: Partial<Record<Flag, string | boolean>> }

/**
 * An argument with exactly the shape of an id pdfshare issued (22 base64url characters) that begins with `-`:
 * ids made before new ids stopped beginning with `-` (src/lib/ids.ts). No flag has this shape (none is 22
 * characters long without a `=`), so it is taken as the id it is, without the `--` that would also work.
 */
const DASHED_ID = /^-[A-Za-z0-9_-]{21}$/

export function parseCommandLine(argv: string[]): ParsedArgs {
  const end = argv.indexOf('--')
  const ids = new Map<string, string>()
  // Each such id stands in the parse as a placeholder that cannot be read as a flag, and is put back after.
  const args = argv.map((arg, i) => {
    if ((end !== -1 && i > end) || !DASHED_ID.test(arg)) return arg
    const placeholder = `\u0000${ids.size}`
    ids.set(placeholder, arg)
    return placeholder
  })
  try {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true })
    return { positionals: positionals.map((value) => ids.get(value) ?? value), flags: values }
  } catch (error) {
    const at = args.findIndex((arg, i) => (end === -1 || i < end) && arg.startsWith('-') && arg !== '--' && !isKnownFlag(arg))
    if (at !== -1 && (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      // The words of the command before it (never a flag's value: one may be a secret).
      const takesValue = (arg = '') =>
        arg.startsWith('--') && (OPTIONS as Record<string, { type: string }>)[arg.slice(2)]?.type === 'string'
      const words = args.slice(0, at).filter((arg, i) => !arg.startsWith('-') && !takesValue(args[i - 1]))
      throw new CliFailure(
        `unknown flag ${JSON.stringify(args[at])} (see --help); if it is an id or a name that begins with "-", put -- before it: pdfshare ${[...words, '--', args[at]].join(' ')}`,
        2,
      )
    }
    throw new CliFailure(`${(error as Error).message.split('\n')[0]} (see --help)`, 2)
  }
}

function isKnownFlag(arg: string): boolean {
  if (arg.startsWith('--')) return Object.hasOwn(OPTIONS, arg.slice(2).split('=')[0]!)
  // Short flags may be grouped (-hv); each letter must be one.
  const shorts = new Set<string>(Object.values(OPTIONS).map((option) => ('short' in option ? option.short : '')))
  return [...arg.slice(1)].every((letter) => shorts.has(letter))
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
