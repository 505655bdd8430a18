import type { Agreement, Rule } from '../../lib/rule'
import { checkText, type TextCheck } from '../../lib/text'
import { TEXT_LIMITS } from '../../shared/file-shapes'

/**
 * The rules of a file's metadata that JSON Schema cannot state (docs/api.md's decisions on text and booleans): texts counted in code points
 * after NFC, without control or display-trick characters; filenames that are not blank and name no folder;
 * booleans as words. The schemas in model.ts are checked with these rules; input.ts stores what they accept.
 */
export type TextField = keyof typeof TEXT_LIMITS

/** A text as it is stored (NFC; CRLF folded to LF in desc), or the sentence that says why it cannot be. */
export function metadataText(field: TextField, raw: string, label: string = field): TextCheck {
  const check = checkText(raw, { max: TEXT_LIMITS[field], multiline: field === 'desc' })
  if (!check.ok) return { ok: false, problem: `${label} ${check.problem}` }
  if (field === 'filename') {
    if (check.value.trim() === '') return { ok: false, problem: `${label} must not be empty` }
    if (/[/\\]/.test(check.value)) return { ok: false, problem: `${label} must not contain / or \\` }
  }
  return check
}

/** A text field: a string metadataText accepts, or (with `nullClears`, in JSON) null, which clears it like "". */
export const textRule =
  (field: TextField, options: { label?: string; nullClears?: boolean } = {}): Rule =>
  (value) => {
    const label = options.label ?? field
    if (value === null && options.nullClears) return undefined
    if (typeof value !== 'string') return `${label} must be a string`
    const check = metadataText(field, value, label)
    return check.ok ? undefined : check.problem
  }

type DescFields = { desc?: string | null; description?: string | null }

/** desc and description are one field under two names: both may be sent only when they store the same text. */
export const descriptionAgreesWithDesc: Agreement<DescFields> = {
  after: 'description',
  problem: ({ desc, description }) =>
    desc !== undefined && description !== undefined && storedText('desc', desc) !== storedText('desc', description)
      ? 'desc and description were both sent with different values; send one of them'
      : undefined,
}

/** The stored form of a text that its rule accepted; null (JSON) clears the field. */
export function storedText(field: TextField, value: string | null): string {
  if (value === null) return ''
  const check = metadataText(field, value)
  if (!check.ok) throw new Error(`${field} was not checked before it was stored: ${check.problem}`)
  return check.value
}
