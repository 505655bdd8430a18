import { textLength } from '../shared/file-shapes'

/**
 * Text rules shared by every text field (docs/api.md's decisions on text): NFC first, then length in Unicode code points,
 * no control characters except the ones a field explicitly allows, and nothing that disguises the text
 * around it (DISPLAY_TRICKS).
 */
export type TextRule = {
  /** Maximum length in code points after NFC normalisation. */
  max: number
  /** Allow TAB and LF (multi-line fields). CRLF is folded to LF first, since browsers send textareas that way. */
  multiline?: boolean
}

export type TextCheck = { ok: true; value: string } | { ok: false; problem: string }

// C0 controls and DEL; TAB (\t) and LF (\n) are tested separately for multi-line fields.
const CONTROL = /[\u0000-\u001F\u007F]/u
const CONTROL_EXCEPT_TAB_LF = /[\u0000-\u0008\u000B-\u001F\u007F]/u

/**
 * Characters that change how the text around them is shown rather than being shown: C1 controls, the line
 * and paragraph separators, and the bidirectional embeddings, overrides and isolates. "invoice\u202Efdp.exe"
 * displays as "invoiceexe.pdf". Left-to-right and right-to-left marks (U+200E, U+200F) stay allowed: they
 * only nudge neutral characters, and right-to-left text needs them.
 */
export const DISPLAY_TRICKS = /[\u0080-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u

/** What a terminal acts on instead of showing: every control character (C0, DEL, C1) and DISPLAY_TRICKS' others. */
const NOT_FOR_TERMINALS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu
const NAMED_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/**
 * `text` as a terminal may print it: each control or display-trick character written as an escape (`\r`, `\x1b`,
 * `\u202e`), so stored text (a label typed through the API before the text rules held, a row written by hand)
 * cannot move the cursor, forge a line, retitle the window (OSC) or reorder what follows it.
 */
export function terminalSafe(text: string): string {
  return text.replace(NOT_FOR_TERMINALS, (char) => {
    const code = char.codePointAt(0)!
    return NAMED_ESCAPES[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`)
  })
}

export function codePointLength(value: string): number {
  let count = 0
  for (const _ of value) count++
  return count
}

/** Applies the rule; `problem` is a phrase that follows the field's name, e.g. "must be at most 160 characters". */
export function checkText(raw: string, rule: TextRule): TextCheck {
  // A lone surrogate (from JSON "\ud800") has no UTF-8 form: it would be stored as something else.
  if (!raw.isWellFormed()) return { ok: false, problem: 'must be valid Unicode text' }
  let value = raw.normalize('NFC')
  if (rule.multiline) value = value.replace(/\r\n/g, '\n')
  const forbidden = rule.multiline ? CONTROL_EXCEPT_TAB_LF : CONTROL
  if (forbidden.test(value)) {
    const allowed = rule.multiline ? ' (tab and line feed are allowed)' : ''
    return { ok: false, problem: `must not contain control characters${allowed}` }
  }
  const trick = DISPLAY_TRICKS.exec(value)?.[0]
  if (trick) {
    const code = trick.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')
    return { ok: false, problem: `must not contain U+${code} (control, line separator or bidirectional formatting characters)` }
  }
  if (textLength(value) > rule.max) {
    return { ok: false, problem: `must be at most ${rule.max} characters` }
  }
  return { ok: true, value }
}

/** The last path segment of a client-supplied name, whichever separator the client's OS uses. */
export function basename(name: string): string {
  const parts = name.split(/[/\\]/)
  return parts[parts.length - 1] ?? ''
}
