import type { Rule } from '../../lib/rule'
import { checkText, type TextCheck } from '../../lib/text'
import { HARD_MAX_FILE_SIZE } from '../../config/settings'
import { REQUEST_LIMITS } from '../../shared/request-shapes'

/**
 * The rules of a file request's fields that JSON Schema cannot state, and of what a sender gives on its page:
 * texts by the text rules of a file's metadata (NFC, counted in code points, no control or display-trick
 * characters), counts and sizes as integers. Each answers what is wrong as a sentence that names the field.
 * Who may send (access, allow, deny), the password, the expiry and notify are a link's rules
 * (core/links/link-input.ts), reused as they are.
 */

type TextSpec = { max: number; multiline?: boolean; required?: boolean }

const TEXTS = {
  title: { max: REQUEST_LIMITS.title, required: true },
  message: { max: REQUEST_LIMITS.message, multiline: true },
  ownerName: { max: REQUEST_LIMITS.ownerName },
  name: { max: REQUEST_LIMITS.senderName },
  note: { max: REQUEST_LIMITS.senderNote, multiline: true },
} satisfies Record<string, TextSpec>

export type RequestText = keyof typeof TEXTS

/** A text as it is stored (NFC, trimmed; CRLF folded to LF where lines are allowed), or why it cannot be. */
export function requestText(field: RequestText, raw: string): TextCheck {
  const spec: TextSpec = TEXTS[field]
  const check = checkText(raw, { max: spec.max, multiline: spec.multiline })
  if (!check.ok) return { ok: false, problem: `${field} ${check.problem}` }
  const value = check.value.trim()
  if (spec.required && value === '') return { ok: false, problem: `${field} must not be empty` }
  return { ok: true, value }
}

/** A text field of the request: a string its rule accepts; null too where it clears the field (`nullClears`). */
export const requestTextRule =
  (field: RequestText, options: { nullClears?: boolean } = {}): Rule =>
  (value) => {
    if (value === null && options.nullClears) return undefined
    if (typeof value !== 'string') return `${field} must be a string${options.nullClears ? ', or null' : ''}`
    const check = requestText(field, value)
    return check.ok ? undefined : check.problem
  }

export const MAX_FILES_RULE_TEXT = `maxFiles must be an integer from 1 to ${REQUEST_LIMITS.maxFiles}`

/** maxFiles: how many files the request takes in all, every sender together. */
export const maxFilesRule: Rule = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= REQUEST_LIMITS.maxFiles ? undefined : MAX_FILES_RULE_TEXT

export const MAX_FILE_SIZE_RULE_TEXT = 'maxFileSize must be a number of bytes from 1 to the server’s largest PDF (PDFSHARE_MAX_FILE_SIZE)'

/** maxFileSize in bytes; the server's own cap, which may be lower than 100 MB, is checked by the service. */
export const maxFileSizeRule: Rule = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= HARD_MAX_FILE_SIZE ? undefined : MAX_FILE_SIZE_RULE_TEXT

/** roomId: the room received files go into; null for none. */
export const roomIdRule: Rule = (value) => (value === null || typeof value === 'string' ? undefined : 'roomId must be a string, or null')

/**
 * Uploads one request takes a minute, every sender together (beside the per-address limit of /u/*): a leaked
 * link cannot be used to fill the owner's account faster than this, whatever its maxFiles.
 */
export const REQUEST_UPLOADS_PER_MINUTE = 60
