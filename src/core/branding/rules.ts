import { hexColourOf } from '../../lib/colour'
import { checkText } from '../../lib/text'
import { BRAND_LIMITS } from '../../shared/branding-shapes'

/** What is wrong with a field of a branding change, as the sentence a client reads, or undefined. */
type Rule = (value: unknown) => string | undefined

/** name: 0 to 60 characters after trimming, the text rules of a title; "" shows no name, null is the setting's. */
export const nameRule: Rule = (value) => {
  if (value === null) return undefined
  if (typeof value !== 'string') return 'name must be a string, "" for none, or null for the server’s setting'
  const check = checkText(value.trim(), { max: BRAND_LIMITS.name })
  return check.ok ? undefined : `name ${check.problem}`
}

/** accent: a colour written #rrggbb; null is the setting's. */
export const accentRule: Rule = (value) =>
  value === null || (typeof value === 'string' && hexColourOf(value) !== undefined)
    ? undefined
    : 'accent must be a colour written #rrggbb, e.g. "#0b6e4f", or null for the server’s setting'
