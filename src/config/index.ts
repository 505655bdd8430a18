import { redactPasswords } from '../lib/redact'
import type { Earlier, Setting } from './setting'
import { SETTING_AGREEMENTS, SETTINGS } from './settings'

export { HARD_MAX_FILE_SIZE, missingS3Settings, SETTINGS } from './settings'

type Settings = typeof SETTINGS
type ValueOf<S> = S extends Setting<infer T, string> ? T : never
type FlagOf<S> = S extends Setting<unknown, infer Flag> ? Flag : never

/**
 * Every setting of pdfshare, resolved once at start-up (flags beat env, env beats defaults) and then
 * passed in. Nothing else reads process.env. Made from the table in settings.ts.
 */
export type Config = { [K in keyof Settings]: ValueOf<Settings[K]> }

/** The command-line flags that carry settings. */
export type SettingFlag = FlagOf<Settings[keyof Settings]>

/** Values of the command-line flags that carry settings (already split from argv by the CLI). */
export type SettingFlags = Partial<Record<SettingFlag, string>>

export const SETTING_FLAGS: SettingFlag[] = Object.values(SETTINGS).flatMap((entry) => (entry.flag ? [entry.flag.name] : []))

/** A setting that could not be understood; main prints its message as one line and exits with code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

type Env = Record<string, string | undefined>

const KNOWN_ENV = new Set<string>(Object.values(SETTINGS).map((entry) => entry.env))

/** PDFSHARE_* variables that are not settings, most likely typos; the CLI warns about them. */
export function unknownEnvSettings(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('PDFSHARE_') && !KNOWN_ENV.has(name))
    .sort()
}

export function loadConfig(flags: SettingFlags, env: Env, cwd = process.cwd()): Config {
  const config: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(SETTINGS) as [string, Setting<unknown, SettingFlag>][]) {
    config[key] = resolveSetting(entry, flags, env, cwd, config as Earlier)
  }
  for (const agreement of SETTING_AGREEMENTS) {
    const problem = agreement(config as Config)
    if (problem) throw new ConfigError(problem)
  }
  return config as Config
}

function resolveSetting<T>(entry: Setting<T, SettingFlag>, flags: SettingFlags, env: Env, cwd: string, earlier: Earlier): T {
  const given = givenText(entry, flags, env)
  if (given) {
    const value = entry.parse(given.text, cwd)
    if (value === undefined) throw refusal(entry, given)
    return value
  }
  if (typeof entry.default !== 'string') return entry.default.from(earlier)
  const value = entry.parse(entry.default, cwd)
  if (value === undefined) throw new Error(`the default of ${entry.env} is not one of its values`)
  return value
}

/** The flag's text if the flag was given (even empty), else the variable's unless it is unset or empty. */
function givenText(entry: Setting<unknown, SettingFlag>, flags: SettingFlags, env: Env): { text: string; source: string } | undefined {
  const flag = entry.flag?.name
  const fromFlag = flag === undefined ? undefined : flags[flag]
  if (fromFlag !== undefined) return { text: fromFlag, source: `--${flag}` }
  const fromEnv = env[entry.env]
  if (fromEnv !== undefined && fromEnv !== '') return { text: fromEnv, source: entry.env }
  return undefined
}

function refusal(entry: Setting<unknown, SettingFlag>, given: { text: string; source: string }): ConfigError {
  const rule = typeof entry.rule === 'function' ? entry.rule(given.text) : (entry.rule ?? 'is not valid')
  const text = entry.quiet ? '' : ` ${JSON.stringify(redactPasswords(given.text))}`
  return new ConfigError(`invalid ${given.source}${text}: ${rule}`)
}
