import { SETTINGS } from './settings'

const DESCRIPTION_COLUMN = 32

/** Every setting for --help, two lines each: its flag, variable and default, then what it does. */
export function settingsHelp(): string {
  return Object.values(SETTINGS)
    .map((entry) => {
      const names = entry.flag ? `--${entry.flag.name} ${entry.flag.arg}, ${entry.env}` : entry.env
      const shown = typeof entry.default === 'string' ? entry.default : entry.default.shown
      return `  ${names}  (default ${shown})\n${' '.repeat(DESCRIPTION_COLUMN)}${entry.help}`
    })
    .join('\n')
}
