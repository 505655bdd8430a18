/** The spellings a form or JSON body may use for a boolean (docs/api.md's decisions on booleans). */
export const ACCEPTED_BOOLEANS = 'true, false, 1, 0, yes, no, on, off'

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on'])
const FALSE_WORDS = new Set(['false', '0', 'no', 'off'])

/** A form value as a boolean, case-insensitive and trimmed; `undefined` when it is not one of the accepted words. */
export function parseFormBoolean(raw: string): boolean | undefined {
  const word = raw.trim().toLowerCase()
  if (TRUE_WORDS.has(word)) return true
  if (FALSE_WORDS.has(word)) return false
  return undefined
}

/** A JSON value as a boolean: real booleans, the numbers 0 and 1, or any accepted form word. */
export function parseJsonBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (value === 0 || value === 1) return value === 1
  if (typeof value === 'string') return parseFormBoolean(value)
  return undefined
}

/** A switch sent in a form: one of the accepted words, any case, spaces around allowed. The refusal names the field. */
export const formBooleanRule =
  (name: string) =>
  (value: unknown): string | undefined =>
    typeof value === 'string' && parseFormBoolean(value) !== undefined ? undefined : notABoolean(name, value)

/** A switch sent in JSON: true/false, 1/0, or one of the accepted words. */
export const jsonBooleanRule =
  (name: string) =>
  (value: unknown): string | undefined =>
    parseJsonBoolean(value) !== undefined ? undefined : notABoolean(name, value)

function notABoolean(name: string, value: unknown): string {
  const shown = JSON.stringify(value)
  return `${name} must be one of ${ACCEPTED_BOOLEANS} (got ${shown === '""' ? 'an empty value' : shown})`
}
