import { parseJsonBoolean } from '../../lib/booleans'
import { checkText, codePointLength } from '../../lib/text'
import { LINK_LIMITS } from '../../shared/link-shapes'
import { embedOriginsProblem, storedOrigins } from './embed-origins'
import { ACCESS_MODES, type AccessMode, isAccessMode, readerListProblem, storedList } from './readers'
import { watermarkProblem } from './watermark-template'
import type { Language } from '../../shared/languages'

/**
 * The rules of a share link's fields that JSON Schema cannot state, shared by the links API (JSON) and the
 * upload (multipart, for the default link). Each rule answers what is wrong with a value as a sentence that
 * names the field, or undefined; the modules wrap them into their schemas (http/rule-schema.ts). Whether an
 * expiry lies in the future and what the instance policy allows are judged later, with the clock: link-policy.ts.
 */
export type FieldRule = (value: unknown) => string | undefined

/** What a client may send for a link, after the rules, as it will be stored. Absent keys were not sent; null clears. */
export type LinkInput = {
  label?: string
  password?: string | null
  /** Milliseconds since the epoch. */
  expiresAt?: number | null
  maxViews?: number | null
  allowDownload?: boolean
  searchEngineVisible?: boolean
  disabled?: boolean
  access?: AccessMode
  /** Stored form: normalised entries, one per line ("" for none). */
  allowReaders?: string
  denyReaders?: string
  /** NFC text with LF line ends; null removes the agreement. */
  agreement?: string | null
  notify?: NotifyMode
  /** Stored form: normalised origins, one per line ("" for none). */
  embedOrigins?: string
  /** NFC text; null removes the watermark. */
  watermark?: string | null
  /** One of shared/languages.ts; null: the reader's own. */
  language?: Language | null
}

/** The fields as they arrive, each already accepted by its rule below. */
export type CheckedLinkFields = {
  label?: string | null
  password?: string | null
  expiresAt?: string | null
  maxViews?: number | string | null
  allowDownload?: unknown
  searchEngineVisible?: unknown
  disabled?: unknown
  access?: string
  allow?: string[] | null
  deny?: string[] | null
  agreement?: string | null
  notify?: string
  embedOrigins?: string[] | null
  watermark?: string | null
  language?: string | null
}

const nullable =
  (rule: FieldRule): FieldRule =>
  (value) =>
    value === null ? undefined : rule(value)

/** label: at most 100 characters, the text rules of a title (NFC, no control or display-trick characters). */
export const labelRule: FieldRule = nullable((value) => {
  if (typeof value !== 'string') return 'label must be a string'
  const check = checkText(value, { max: LINK_LIMITS.label })
  return check.ok ? undefined : `label ${check.problem}`
})

export const PASSWORD_RULE_TEXT = `password must be ${LINK_LIMITS.passwordMin} to ${LINK_LIMITS.passwordMax} characters`

/** password: 4 to 200 characters (code points), stored only as its argon2id hash. */
export const passwordRule: FieldRule = nullable((value) => {
  if (typeof value !== 'string') return 'password must be a string'
  const length = codePointLength(value)
  return length >= LINK_LIMITS.passwordMin && length <= LINK_LIMITS.passwordMax && value.isWellFormed() ? undefined : PASSWORD_RULE_TEXT
})

// A calendar date and a time with a timezone: 2026-12-31T23:59Z, 2026-12-31T23:59:30.250+02:00.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i

/** An ISO 8601 date-time with a timezone as milliseconds since the epoch, or undefined when it is not one (31 February included). */
export function parseExpiresAt(text: string): number | undefined {
  const match = DATE_TIME.exec(text.trim())
  if (!match) return undefined
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match.slice(1).map((part) => Number(part ?? 0))
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate()
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth) return undefined
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHours! > 23 || offsetMinutes! > 59) return undefined
  const ms = Date.parse(text.trim())
  return Number.isFinite(ms) ? ms : undefined
}

export const EXPIRES_AT_RULE_TEXT = 'expiresAt must be an ISO 8601 date-time with a timezone, e.g. 2026-12-31T23:59:00Z'

/** expiresAt: an ISO 8601 date-time with a timezone (Z or ±hh:mm). */
export const expiresAtRule: FieldRule = nullable((value) =>
  typeof value === 'string' && parseExpiresAt(value) !== undefined ? undefined : EXPIRES_AT_RULE_TEXT,
)

export const MAX_VIEWS_RULE_TEXT = `maxViews must be an integer from 1 to ${LINK_LIMITS.maxViews}`

const isMaxViews = (value: number) => Number.isInteger(value) && value >= 1 && value <= LINK_LIMITS.maxViews

/** maxViews in JSON: an integer from 1 to 1,000,000,000. */
export const jsonMaxViewsRule: FieldRule = nullable((value) =>
  typeof value === 'number' && isMaxViews(value) ? undefined : MAX_VIEWS_RULE_TEXT,
)

/** maxViews in a form: the same integer, written in digits. */
export const formMaxViewsRule: FieldRule = (value) =>
  typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value) && isMaxViews(Number(value)) ? undefined : MAX_VIEWS_RULE_TEXT

export const ACCESS_RULE_TEXT = `access must be one of ${ACCESS_MODES.map((mode) => `"${mode}"`).join(', ')}`

/** access: who may open the link (core/links/readers.ts). */
export const accessRule: FieldRule = (value) => (isAccessMode(value) ? undefined : ACCESS_RULE_TEXT)

/** allow and deny: lists of addresses and @domains; null or [] empties the list. */
export const readerListRule =
  (name: 'allow' | 'deny'): FieldRule =>
  (value) =>
    value === null ? undefined : readerListProblem(name, value)

/** agreement: 1 to 20,000 characters of text, several lines allowed; null removes it. */
export const agreementRule: FieldRule = nullable((value) => {
  if (typeof value !== 'string') return 'agreement must be a string, or null'
  const check = checkText(value, { max: LINK_LIMITS.agreement, multiline: true })
  if (!check.ok) return `agreement ${check.problem}`
  return check.value.trim() === '' ? 'agreement must not be empty; null removes it' : undefined
})

/** embedOrigins: at most 10 origins that may frame the link's page (core/links/embed-origins.ts); null or [] empties it. */
export const embedOriginsRule: FieldRule = nullable(embedOriginsProblem)

/** watermark: a one-line template (core/links/watermark-template.ts) drawn over every page a reader gets; null removes it. */
export const watermarkRule: FieldRule = nullable(watermarkProblem)

/** language: the one language the link's pages are in (docs/languages.md); null: each reader's own. */
export { languageRule } from '../i18n/language-rule'

export const NOTIFY_MODES = ['on', 'hourly', 'daily', 'off'] as const
export type NotifyMode = (typeof NOTIFY_MODES)[number]
export const NOTIFY_RULE_TEXT = `notify must be one of ${NOTIFY_MODES.map((mode) => `"${mode}"`).join(', ')}`

/** notify: how the owner is told of this link's readers (on their notification channels). */
export const notifyRule: FieldRule = (value) => (NOTIFY_MODES.includes(value as NotifyMode) ? undefined : NOTIFY_RULE_TEXT)

/** Checked fields in their stored form: an NFC label ("" when cleared), the expiry in milliseconds, booleans. */
export function toLinkInput(fields: CheckedLinkFields): LinkInput {
  const input: LinkInput = {}
  if (fields.label !== undefined) input.label = fields.label === null ? '' : fields.label.normalize('NFC')
  if (fields.password !== undefined) input.password = fields.password
  if (fields.expiresAt !== undefined) input.expiresAt = fields.expiresAt === null ? null : checked(parseExpiresAt(fields.expiresAt))
  if (fields.maxViews !== undefined) input.maxViews = fields.maxViews === null ? null : Number(fields.maxViews)
  for (const key of ['allowDownload', 'searchEngineVisible', 'disabled'] as const) {
    if (fields[key] !== undefined) input[key] = checked(parseJsonBoolean(fields[key]))
  }
  if (fields.access !== undefined) input.access = fields.access as AccessMode
  if (fields.notify !== undefined) input.notify = fields.notify as NotifyMode
  if (fields.allow !== undefined) input.allowReaders = storedList(fields.allow ?? [])
  if (fields.deny !== undefined) input.denyReaders = storedList(fields.deny ?? [])
  if (fields.embedOrigins !== undefined) input.embedOrigins = storedOrigins(fields.embedOrigins ?? [])
  if (fields.watermark !== undefined) input.watermark = fields.watermark === null ? null : fields.watermark.normalize('NFC').trim()
  if (fields.language !== undefined) input.language = fields.language as Language | null
  if (fields.agreement !== undefined)
    input.agreement = fields.agreement === null ? null : fields.agreement.normalize('NFC').replace(/\r\n/g, '\n').trim()
  return input
}

function checked<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('a link field was stored without being checked')
  return value
}
