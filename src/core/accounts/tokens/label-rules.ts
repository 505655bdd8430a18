import type { Rule } from '../../../lib/rule'
import { checkText, codePointLength, type TextCheck } from '../../../lib/text'
import { TOKEN_LABEL_MAX } from '../../../shared/account-shapes'

/**
 * A token's label as it is stored: trimmed, NFC, at most TOKEN_LABEL_MAX characters, and the text rules of a
 * one-line field (lib/text.ts): no control characters and no bidirectional overrides. The label is shown in the
 * dashboard and printed by `pdfshare token list` on an operator's terminal, where ESC, CR or an OSC sequence
 * would forge rows or retitle the window. "" is a label too (the CLI's token without --label); the API's body
 * asks for one that is not blank.
 */
export function tokenLabel(raw: string): TextCheck {
  const check = checkText(raw.trim(), { max: TOKEN_LABEL_MAX })
  return check.ok ? check : { ok: false, problem: `label ${check.problem}` }
}

/** The API's label: 1 to TOKEN_LABEL_MAX characters, not blank, that tokenLabel accepts. */
export const labelRule: Rule = (value) => {
  if (typeof value !== 'string') return 'label must be a string'
  const length = codePointLength(value)
  if (length < 1 || length > TOKEN_LABEL_MAX) return `label must be 1 to ${TOKEN_LABEL_MAX} characters`
  if (value.trim() === '') return 'label must not be blank'
  const check = tokenLabel(value)
  return check.ok ? undefined : check.problem
}
