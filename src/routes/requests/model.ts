import { t, type Static } from 'elysia'
import { accessRule, EXPIRES_AT_RULE_TEXT, expiresAtRule, notifyRule, passwordRule, readerListRule } from '../../core/links/link-input'
import { maxFileSizeRule, maxFilesRule, requestTextRule, roomIdRule } from '../../core/requests/rules'
import { withRule } from '../../http/rule-schema'
import { ACCEPTED_BOOLEANS, jsonBooleanRule } from '../../lib/booleans'
import { LINK_LIMITS } from '../../shared/link-shapes'
import { REQUEST_LIMITS } from '../../shared/request-shapes'

const ACCESS = t.Union([t.Literal('open'), t.Literal('email'), t.Literal('verified-email')])
const NOTIFY = t.Union([t.Literal('on'), t.Literal('hourly'), t.Literal('daily'), t.Literal('off')])

/** The Request resource, as docs/requests.md describes it. Written once: routes, OpenAPI, the dashboard, tests. */
export const RequestSchema = t.Object(
  {
    id: t.String({ description: 'Opaque, URL-safe, at most 64 characters' }),
    url: t.String({ description: "The sender's page: <public-url>/u/<slug>, a slug of 128 random bits" }),
    title: t.String({ description: `At most ${REQUEST_LIMITS.title} characters` }),
    message: t.String({ description: `Plain text under the title, at most ${REQUEST_LIMITS.message} characters; "" when none` }),
    ownerName: t.Union([t.String(), t.Null()], {
      description: 'The name the page shows as who asks; null: none (nothing of your account shows)',
    }),
    maxFiles: t.Integer({ description: 'Files the request takes in all, every sender together' }),
    maxFileSize: t.Integer({ description: 'The largest PDF it takes, in bytes (at most the server’s PDFSHARE_MAX_FILE_SIZE)' }),
    expiresAt: t.Union([t.String(), t.Null()], { description: 'ISO 8601 UTC with milliseconds; null: never expires' }),
    hasPassword: t.Boolean({ description: 'The password itself is write-only' }),
    access: t.Union(ACCESS.anyOf, {
      description: 'open: whoever holds the link; email: a sender gives an address first; verified-email: and types the code mailed to it',
    }),
    allow: t.Array(t.String(), { description: 'Addresses and @domains that may send; [] lets every address send' }),
    deny: t.Array(t.String(), { description: 'Addresses and @domains kept out, even when allowed' }),
    roomId: t.Union([t.String(), t.Null()], { description: 'The room received files land in; null: none' }),
    disabled: t.Boolean(),
    notify: t.Union(NOTIFY.anyOf, {
      description: 'How you are told of files that arrive, on your notification channels: at once, in an hourly or daily digest, or not',
    }),
    received: t.Integer({ description: 'Files received so far (deleting one does not give its place back)' }),
    state: t.Union([t.Literal('active'), t.Literal('disabled'), t.Literal('expired'), t.Literal('full')], {
      description: 'What a sender gets now: active, or why its uploads are a 410 (disabled wins, then expired, then full)',
    }),
    createdAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
    updatedAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
  },
  { title: 'Request' },
)
export type RequestDto = Static<typeof RequestSchema>

export const RequestEnvelope = t.Object({ success: t.Literal(true), data: RequestSchema })
export const RequestListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(RequestSchema) })
export const RequestDeletedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) })
export const RequestIdParams = t.Object({ id: t.String() })

const BOOLEAN_WORDS = `a JSON boolean, or one of ${ACCEPTED_BOOLEANS} (case-insensitive)`
const listOf = (name: 'allow' | 'deny', description: string) =>
  t.Optional(
    withRule(
      t.Union([t.Array(t.String({ maxLength: LINK_LIMITS.address }), { maxItems: LINK_LIMITS.listEntries }), t.Null()], { description }),
      readerListRule(name),
    ),
  )

/** The fields of a request as a client sends them; on PATCH omitted ones stay, null clears message, ownerName, expiresAt and password. */
const FIELDS = {
  message: t.Optional(
    withRule(
      t.Union([t.String({ maxLength: REQUEST_LIMITS.message * 2 }), t.Null()], { description: 'Plain text; "" or null: none' }),
      requestTextRule('message', { nullClears: true }),
    ),
  ),
  ownerName: t.Optional(
    withRule(
      t.Union([t.String({ maxLength: REQUEST_LIMITS.ownerName * 2 }), t.Null()], {
        description: 'A name to show on the page as who asks (e.g. "Ada Lovelace, Acme Accounting"); null: none',
      }),
      requestTextRule('ownerName', { nullClears: true }),
    ),
  ),
  maxFiles: t.Optional(
    withRule(
      t.Integer({ minimum: 1, maximum: REQUEST_LIMITS.maxFiles, description: `Default ${REQUEST_LIMITS.defaultMaxFiles}` }),
      maxFilesRule,
    ),
  ),
  maxFileSize: t.Optional(
    withRule(t.Integer({ minimum: 1, description: 'Bytes; default and at most the server’s PDFSHARE_MAX_FILE_SIZE' }), maxFileSizeRule),
  ),
  expiresAt: t.Optional(
    withRule(
      t.Union([t.String({ format: 'date-time' }), t.Null()], {
        description: `${EXPIRES_AT_RULE_TEXT.replace('expiresAt must be', 'An')}, in the future; null: never`,
      }),
      expiresAtRule,
    ),
  ),
  password: t.Optional(
    withRule(
      t.Union([t.String({ minLength: LINK_LIMITS.passwordMin, maxLength: LINK_LIMITS.passwordMax }), t.Null()], {
        description: 'Senders must type it; null removes it. Write-only (hasPassword tells whether there is one)',
      }),
      passwordRule,
    ),
  ),
  access: t.Optional(withRule(t.Union(ACCESS.anyOf, { description: 'Who may send (default open)' }), accessRule)),
  allow: listOf('allow', 'Addresses and @domains; only they may send. Needs access email or verified-email; [] or null empties it'),
  deny: listOf('deny', 'Addresses and @domains kept out (deny wins over allow). Needs access email or verified-email'),
  roomId: t.Optional(withRule(t.Union([t.String(), t.Null()], { description: 'The room received files land in; null: none' }), roomIdRule)),
  disabled: t.Optional(
    withRule(
      t.Union([t.Boolean(), t.Literal(0), t.Literal(1), t.String()], {
        description: `Turn the request off (default false): ${BOOLEAN_WORDS}`,
      }),
      jsonBooleanRule('disabled'),
    ),
  ),
  notify: t.Optional(withRule(t.Union(NOTIFY.anyOf, { description: 'Default on' }), notifyRule)),
}

const title = withRule(
  t.String({ maxLength: REQUEST_LIMITS.title * 2, description: `1 to ${REQUEST_LIMITS.title} characters` }),
  requestTextRule('title'),
)
const objectError = { error: () => 'The JSON body must be an object, e.g. {"title": "Your 2026 statements", "maxFiles": 5}' }

/** The JSON body of POST /api/requests: a title, the rest optional. Unknown fields are ignored. */
export const NewRequestJson = t.Object({ title, ...FIELDS }, { additionalProperties: true, ...objectError })
/** The JSON body of PATCH /api/requests/:id: omitted fields stay unchanged. */
export const RequestJson = t.Object({ title: t.Optional(title), ...FIELDS }, { additionalProperties: true, ...objectError })
export type RequestBody = Static<typeof RequestJson>
