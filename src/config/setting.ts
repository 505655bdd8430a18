/** The settings a default may be computed from; they come before the settings that use them in the table. */
export type Earlier = { port: number; dataDir: string }

/**
 * One setting of pdfshare: where it comes from, what it defaults to, how its text is read, and how it is
 * described. The table in settings.ts lists them all; the Config type, loadConfig, the known-environment
 * list and --help are all made from it.
 */
export type Setting<T, Flag extends string = never> = {
  /** The environment variable. Every setting has one. */
  env: `PDFSHARE_${string}`
  /** The command-line flag (without its dashes) and what its argument is called, for settings that have one. */
  flag?: { name: Flag; arg: string }
  /**
   * The default as docs/operations.md (Settings) and --help show it. A text is read by `parse` like a given value, so the text
   * shown and the value used cannot drift apart; a default that follows other settings is computed instead.
   */
  default: string | { shown: string; from: (earlier: Earlier) => T }
  /** Reads a given text; `undefined` when the text is not a value of this setting. */
  parse: (text: string, cwd: string) => T | undefined
  /** The end of the refusal "invalid <source> "<text>": <rule>", e.g. "must be a number of seconds"; absent when any text will do. */
  rule?: string | ((text: string) => string)
  /** The refusal leaves out the text: a secret must not reach a terminal or a log, and a blank one says nothing. */
  quiet?: true
  /** The one line --help shows. */
  help: string
}

/** A table entry; a function only so that TypeScript infers each setting's value and flag types. */
export function setting<T, const Flag extends string = never>(entry: Setting<T, Flag>): Setting<T, Flag> {
  return entry
}
