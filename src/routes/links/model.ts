import { t, type Static } from 'elysia'
import {
  accessRule,
  agreementRule,
  embedOriginsRule,
  watermarkRule,
  languageRule,
  EXPIRES_AT_RULE_TEXT,
  expiresAtRule,
  jsonMaxViewsRule,
  labelRule,
  notifyRule,
  passwordRule,
  readerListRule,
} from '../../core/links/link-input'
import { withRule } from '../../http/rule-schema'
import { ACCEPTED_BOOLEANS, jsonBooleanRule } from '../../lib/booleans'
import { LINK_LIMITS } from '../../shared/link-shapes'
import { LANGUAGES } from '../../shared/languages'

/** The Link resource, as docs/api.md, "API: share links", describes it. Written once: routes, OpenAPI, tests. */
export const LinkSchema = t.Object(
  {
    id: t.String({ description: 'Opaque, URL-safe, at most 64 characters' }),
    fileId: t.Union([t.String(), t.Null()], { description: "The file this link shares; null for a room's link" }),
    roomId: t.Union([t.String(), t.Null()], { description: "The room this link shares (docs/rooms.md); null for a file's link" }),
    url: t.String({ description: 'Public viewer URL: <public-url>/s/<slug>' }),
    label: t.String({ description: `At most ${LINK_LIMITS.label} characters; "" when none` }),
    isDefault: t.Boolean({ description: "The file's or room's default link (its shareUrl); it cannot be deleted" }),
    allowDownload: t.Boolean(),
    searchEngineVisible: t.Boolean(),
    expiresAt: t.Union([t.String(), t.Null()], { description: 'ISO 8601 UTC with milliseconds; null: never expires' }),
    maxViews: t.Union([t.Integer(), t.Null()], { description: 'View limit; null: none' }),
    hasPassword: t.Boolean({ description: 'The password itself is write-only' }),
    disabled: t.Boolean(),
    access: t.Union([t.Literal('open'), t.Literal('email'), t.Literal('verified-email')], {
      description: 'open: whoever holds the link; email: a reader gives an address first; verified-email: and types the code mailed to it',
    }),
    allow: t.Array(t.String(), { description: 'Addresses and @domains that may open the link; [] lets every address in' }),
    deny: t.Array(t.String(), { description: 'Addresses and @domains kept out, even when allowed' }),
    agreement: t.Union([t.String(), t.Null()], { description: 'The text a reader accepts before the page; null: none' }),
    agreementVersion: t.Integer({ description: 'Goes up each time the agreement text changes (0: never set); acceptances name it' }),
    notify: t.Union([t.Literal('on'), t.Literal('hourly'), t.Literal('daily'), t.Literal('off')], {
      description: "How you are told of this link's readers on your notification channels: at once, in an hourly or daily digest, or not",
    }),
    embedOrigins: t.Array(t.String(), {
      description: 'Origins whose pages may show the share page in a frame (its frame-ancestors); [] lets no other site frame it',
    }),
    watermark: t.Union([t.String(), t.Null()], {
      description:
        'Drawn across every page a reader gets and stamped into downloads, with {email}, {date}, {visit} and {label} filled in per reader; null: none',
    }),
    language: t.Union([t.UnionEnum(LANGUAGES), t.Null()], {
      description:
        "The language of every reader's page of this link (docs/languages.md); null: each reader's own (their choice, their browser's, the instance's default)",
    }),
    views: t.Integer({ description: 'Counted views through this link' }),
    state: t.Union([t.Literal('active'), t.Literal('disabled'), t.Literal('expired'), t.Literal('used_up')], {
      description: 'What a reader gets now: active, or why not (disabled wins, then expired, then used_up)',
    }),
    createdAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
    updatedAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
  },
  { title: 'Link' },
)
export type LinkDto = Static<typeof LinkSchema>
/** What a reader gets from a link now: active, or why not (disabled wins, then expired, then used_up). */
export type LinkState = LinkDto['state']

export const LinkEnvelope = t.Object({ success: t.Literal(true), data: LinkSchema })
export const LinkListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(LinkSchema) })
export const LinkDeletedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) })

export const FileIdParams = t.Object({ id: t.String() })
export const LinkIdParams = t.Object({ linkId: t.String() })
export const RoomIdParams = t.Object({ id: t.String() })

const BOOLEAN_WORDS = `a JSON boolean, or one of ${ACCEPTED_BOOLEANS} (case-insensitive)`
const jsonBoolean = (name: string, description: string) =>
  t.Optional(
    withRule(
      t.Union([t.Boolean(), t.Literal(0), t.Literal(1), t.String()], { description: `${description}: ${BOOLEAN_WORDS}` }),
      jsonBooleanRule(name),
    ),
  )

/**
 * The JSON body of POST /api/files/:id/links and PATCH /api/links/:linkId, checked with core/links' rules.
 * On PATCH, omitted fields stay unchanged and null clears password, expiresAt, maxViews and label.
 * Unknown fields are ignored.
 */
export const LinkJson = t.Object(
  {
    label: t.Optional(
      withRule(t.Union([t.String({ maxLength: LINK_LIMITS.label }), t.Null()], { description: '"" or null: no label' }), labelRule),
    ),
    password: t.Optional(
      withRule(
        t.Union([t.String({ minLength: LINK_LIMITS.passwordMin, maxLength: LINK_LIMITS.passwordMax }), t.Null()], {
          description: 'Readers must type it; null removes it. Write-only (hasPassword tells whether there is one)',
        }),
        passwordRule,
      ),
    ),
    expiresAt: t.Optional(
      withRule(
        t.Union([t.String({ format: 'date-time' }), t.Null()], {
          description: `${EXPIRES_AT_RULE_TEXT.replace('expiresAt must be', 'An')}, in the future; null: never`,
        }),
        expiresAtRule,
      ),
    ),
    maxViews: t.Optional(
      withRule(
        t.Union([t.Integer({ minimum: 1, maximum: LINK_LIMITS.maxViews }), t.Null()], { description: 'null: no limit' }),
        jsonMaxViewsRule,
      ),
    ),
    allowDownload: jsonBoolean('allowDownload', 'Offer a download on the share page (default true)'),
    searchEngineVisible: jsonBoolean('searchEngineVisible', 'Let search engines index the share page (default false)'),
    disabled: jsonBoolean('disabled', 'Turn the link off (default false)'),
    access: t.Optional(
      withRule(
        t.Union([t.Literal('open'), t.Literal('email'), t.Literal('verified-email')], { description: 'Who may open it (default open)' }),
        accessRule,
      ),
    ),
    allow: t.Optional(
      withRule(
        t.Union([t.Array(t.String({ maxLength: LINK_LIMITS.address }), { maxItems: LINK_LIMITS.listEntries }), t.Null()], {
          description: 'Addresses and @domains; only they may open the link. Needs access email or verified-email; [] or null empties it',
        }),
        readerListRule('allow'),
      ),
    ),
    deny: t.Optional(
      withRule(
        t.Union([t.Array(t.String({ maxLength: LINK_LIMITS.address }), { maxItems: LINK_LIMITS.listEntries }), t.Null()], {
          description: 'Addresses and @domains kept out (deny wins over allow). Needs access email or verified-email',
        }),
        readerListRule('deny'),
      ),
    ),
    notify: t.Optional(
      withRule(
        t.Union([t.Literal('on'), t.Literal('hourly'), t.Literal('daily'), t.Literal('off')], { description: 'Default on' }),
        notifyRule,
      ),
    ),
    agreement: t.Optional(
      withRule(
        t.Union([t.String({ maxLength: LINK_LIMITS.agreement }), t.Null()], {
          description: 'Text a reader must accept first; null removes it',
        }),
        agreementRule,
      ),
    ),
    embedOrigins: t.Optional(
      withRule(
        t.Union([t.Array(t.String({ maxLength: LINK_LIMITS.origin }), { maxItems: LINK_LIMITS.embedOrigins }), t.Null()], {
          description:
            'Origins such as https://intranet.example.com whose pages may frame the share page (https; http only for localhost; no path, no wildcard); [] or null: none',
        }),
        embedOriginsRule,
      ),
    ),
    watermark: t.Optional(
      withRule(
        t.Union([t.String({ maxLength: LINK_LIMITS.watermark * 2 }), t.Null()], {
          description: `One line of at most ${LINK_LIMITS.watermark} characters drawn diagonally across every page a reader gets and stamped into the PDF they download; it may name {email} (the address the reader gave at the link's gate), {date} (today, UTC), {visit} (the reader's visit id, as analytics lists it) and {label}; null removes it`,
        }),
        watermarkRule,
      ),
    ),
    language: t.Optional(
      withRule(
        t.Union([t.String({ maxLength: 16 }), t.Null()], {
          description: `The language of every reader's page of this link: one of ${LANGUAGES.join(', ')}; null: each reader's own (docs/languages.md)`,
        }),
        languageRule,
      ),
    ),
  },
  { additionalProperties: true, error: () => 'The JSON body must be an object, e.g. {"label": "For the board", "maxViews": 10}' },
)
/** What the dashboard sends to POST /api/files/:id/links and PATCH /api/links/:linkId. */
export type LinkBody = Static<typeof LinkJson>
