import { checkText, codePointLength } from '../../lib/text'
import { LINK_LIMITS } from '../../shared/link-shapes'

/** What a watermark may name, filled in per reader when a page or a download is made for them. */
export const WATERMARK_PLACEHOLDERS = ['email', 'date', 'visit', 'label'] as const
export type WatermarkValues = Record<(typeof WATERMARK_PLACEHOLDERS)[number], string>

const PLACEHOLDER = /\{([^{}]*)\}/g
const LIST = WATERMARK_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')

/**
 * What is wrong with a watermark template, as a sentence that names the field, or undefined: one line of at most
 * LINK_LIMITS.watermark characters with the text rules of a label, some of it not blank, and no placeholder
 * but the four (a typo such as `{mail}` would otherwise be drawn as it is on every page).
 */
export function watermarkProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'watermark must be a string, or null'
  const check = checkText(value, { max: LINK_LIMITS.watermark })
  if (!check.ok) return `watermark ${check.problem}`
  if (check.value.trim() === '') return 'watermark must not be empty; null removes it'
  for (const [, name] of check.value.matchAll(PLACEHOLDER))
    if (!(WATERMARK_PLACEHOLDERS as readonly string[]).includes(name!))
      return `watermark may name only ${LIST}; {${name}} is not one of them`
  return undefined
}

/**
 * The text drawn for one reader: the placeholders filled in, runs of spaces that an empty value leaves folded
 * into one, trimmed, and at most WATERMARK_TEXT_MAX characters (a long address and label stay readable). A
 * template whose every placeholder was empty and that holds nothing else draws nothing (empty string).
 */
export function fillWatermark(template: string, values: WatermarkValues): string {
  const filled = template
    .replace(PLACEHOLDER, (whole, name: string) => (name in values ? values[name as keyof WatermarkValues] : whole))
    .replace(/\s+/g, ' ')
    .trim()
  if (codePointLength(filled) <= WATERMARK_TEXT_MAX) return filled
  return `${[...filled].slice(0, WATERMARK_TEXT_MAX - 1).join('')}…`
}

/** The longest text a watermark draws once filled in (the template itself is at most LINK_LIMITS.watermark). */
export const WATERMARK_TEXT_MAX = 160
