import { t, type Static } from 'elysia'
import { expiresAtRule, formMaxViewsRule, passwordRule } from '../../core/links/link-input'
import { withRule } from '../../http/rule-schema'
import { ACCEPTED_BOOLEANS } from '../../lib/booleans'
import { LIST_ORDERS, TEXT_LIMITS } from '../../shared/file-shapes'
import { LINK_LIMITS } from '../../shared/link-shapes'
import { formBooleanRule, jsonBooleanRule } from '../../lib/booleans'
import { textRule, type TextField } from '../../core/files/rules'

/**
 * The File resource, as docs/api.md (The File resource) describes it field by field. Written once: the routes' response
 * schemas, the OpenAPI document and the type tests all use these objects.
 */
export const FileSchema = t.Object(
  {
    id: t.String({ description: 'Opaque, URL-safe, at most 64 characters' }),
    filename: t.String({ description: `Display filename, at most ${TEXT_LIMITS.filename} characters` }),
    title: t.String({ description: `Public page title, at most ${TEXT_LIMITS.title} characters; "" when not set` }),
    desc: t.String({ description: `Public page description, at most ${TEXT_LIMITS.desc} characters; "" when not set` }),
    description: t.String({ description: 'Always equal to desc' }),
    fileSize: t.Integer({ description: 'Size of the stored PDF in bytes' }),
    contentType: t.Literal('application/pdf'),
    allowDownload: t.Boolean(),
    searchEngineVisible: t.Boolean(),
    views: t.Integer({ description: 'Human visits of the share page' }),
    shareUrl: t.String({ description: 'Public viewer URL: <public-url>/s/<slug>' }),
    createdAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
    updatedAt: t.String({ description: 'ISO 8601 UTC with milliseconds; changes on every successful PUT' }),
    sha256: t.String({ description: 'SHA-256 of the stored bytes, lowercase hex' }),
    source: t.Union(
      [
        t.Object(
          {
            requestId: t.String({ description: 'The file request it arrived through (it may have been deleted since)' }),
            name: t.Union([t.String(), t.Null()], { description: 'The name its sender gave; null: none' }),
            email: t.Union([t.String(), t.Null()], {
              description: 'The address its sender gave (proved by a mailed code on a verified-email request); null: none',
            }),
            note: t.Union([t.String(), t.Null()], { description: 'The note its sender added; null: none' }),
          },
          { title: 'Source' },
        ),
        t.Null(),
      ],
      { description: 'Where a file sent through a file request came from (docs/requests.md); null: your own upload' },
    ),
  },
  { title: 'File' },
)
export type FileDto = Static<typeof FileSchema>

export const FileEnvelope = t.Object({ success: t.Literal(true), data: FileSchema })
export const FileListEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Array(FileSchema),
  nextCursor: t.Union([t.String(), t.Null()], { description: 'Pass as ?cursor= for the next page; null on the last page' }),
})
export const DeletedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) })

/**
 * One PDF of a file: the current one, or a previous one kept when the file was replaced (at most
 * PDFSHARE_MAX_VERSIONS). As docs/api.md, Versions, describes it.
 */
export const VersionSchema = t.Object(
  {
    id: t.String({ description: 'Opaque; the current PDF keeps its id when a replacement makes it a previous version' }),
    current: t.Boolean({ description: 'The PDF the file serves now; listed first' }),
    filename: t.String({ description: "The file's filename while this PDF was current; its download name" }),
    fileSize: t.Integer({ description: 'Size of the PDF in bytes; previous versions count toward the storage quota' }),
    sha256: t.String({ description: 'SHA-256 of the PDF, lowercase hex' }),
    uploadedAt: t.String({ description: 'When this PDF was stored (uploaded, or restored), ISO 8601 UTC with milliseconds' }),
    replacedAt: t.Union([t.String(), t.Null()], {
      description: 'When it stopped being the current PDF, ISO 8601 UTC with milliseconds; null for the current one',
    }),
  },
  { title: 'Version' },
)
export type VersionDto = Static<typeof VersionSchema>

export const VersionListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(VersionSchema) })
export const VersionParams = t.Object({ id: t.String(), versionId: t.String() })

/** The 400 answers to a bad list query, one per parameter. */
export const LIST_QUERY_ERRORS = {
  limit: 'limit must be an integer from 1 to 100',
  cursor: 'cursor must be a value of nextCursor',
  q: 'q must be 1 to 200 characters',
  order: `order must be ${LIST_ORDERS.slice(0, -1).join(', ')} or ${LIST_ORDERS.at(-1)}`,
} as const

/**
 * Elysia answers a failed check with a schema's `error`. A text there would be served in the OpenAPI
 * document too, where a custom key breaks the spec (a strict linter refuses it); Elysia also takes a function,
 * which it calls on failure and which JSON cannot carry, so the document stays plain OpenAPI. The texts live
 * in LIST_QUERY_ERRORS, outside the schemas.
 */
const failsWith = (parameter: keyof typeof LIST_QUERY_ERRORS) => ({ error: () => LIST_QUERY_ERRORS[parameter] })

export const ListQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20, ...failsWith('limit') })),
  cursor: t.Optional(t.String({ maxLength: 200, description: 'nextCursor of the previous page', ...failsWith('cursor') })),
  q: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 200,
      description: 'Only files whose filename or title contains this (case-insensitive for ASCII letters)',
      ...failsWith('q'),
    }),
  ),
  order: t.Optional(
    t.Union(
      LIST_ORDERS.map((order) => t.Literal(order)),
      {
        default: LIST_ORDERS[0],
        description: 'newest or oldest upload first, name A–Z (title, or filename without one), most views, largest',
        ...failsWith('order'),
      },
    ),
  ),
})

export const FileIdParams = t.Object({ id: t.String() })

/**
 * A text field of the metadata: documented as a string of at most its TEXT_LIMITS characters, checked by
 * its rule in rules.ts (code points after NFC, no control or display-trick characters).
 */
const text = (field: TextField, options: { label?: string; description?: string } = {}) =>
  t.Optional(withRule(t.String({ maxLength: TEXT_LIMITS[field], description: options.description }), textRule(field, options)))

/** The same in a JSON body, where null clears the field like "". */
const clearableText = (field: TextField, options: { label?: string; description: string }) =>
  t.Optional(
    withRule(
      t.Union([t.String({ maxLength: TEXT_LIMITS[field] }), t.Null()], { description: options.description }),
      textRule(field, { ...options, nullClears: true }),
    ),
  )

const BOOLEAN_WORDS = `one of ${ACCEPTED_BOOLEANS} (case-insensitive)`

/**
 * The text and switch fields of a multipart upload or update, checked by routes/files/input.ts.
 * Unknown fields are ignored.
 */
export const MetadataForm = t.Object({
  filename: text('filename', { description: 'Defaults to the uploaded file name' }),
  title: text('title'),
  desc: text('desc', { description: '"description" is accepted in its place' }),
  description: text('desc', { label: 'description', description: 'Same as desc' }),
  allowDownload: t.Optional(withRule(t.String({ description: `Default true; ${BOOLEAN_WORDS}` }), formBooleanRule('allowDownload'))),
  searchEngineVisible: t.Optional(
    withRule(t.String({ description: `Default false; ${BOOLEAN_WORDS}` }), formBooleanRule('searchEngineVisible')),
  ),
})

const EMPTY_IS_ABSENT = '"" is the same as leaving it out'

/**
 * The default link's own fields on an upload (docs/api.md, "API: share links"), checked with core/links' rules
 * and the instance policy. A PUT does not take them: a link is changed with PATCH /api/links/:linkId.
 */
export const DefaultLinkForm = t.Object({
  password: t.Optional(
    withRule(
      t.String({
        minLength: LINK_LIMITS.passwordMin,
        maxLength: LINK_LIMITS.passwordMax,
        description: `A password readers must type on the default link; ${EMPTY_IS_ABSENT}`,
      }),
      passwordRule,
    ),
  ),
  expiresAt: t.Optional(
    withRule(
      t.String({
        format: 'date-time',
        description: `When the default link stops working: an ISO 8601 date-time with a timezone, in the future; ${EMPTY_IS_ABSENT}`,
      }),
      expiresAtRule,
    ),
  ),
  maxViews: t.Optional(
    withRule(
      t.String({
        pattern: '^[0-9]+$',
        description: `View limit of the default link, an integer from 1 to ${LINK_LIMITS.maxViews}; ${EMPTY_IS_ABSENT}`,
      }),
      formMaxViewsRule,
    ),
  ),
})

const PdfPart = t.File({
  description: 'The PDF (.pdf name, application/pdf part type, %PDF- within its first 1,024 bytes), at most 100 MB',
})

/** The multipart upload body: the PDF part, the metadata fields and the default link's fields. */
export const UploadForm = t.Object({
  file: PdfPart,
  ...MetadataForm.properties,
  ...DefaultLinkForm.properties,
})

/** The multipart update body: the PDF part and the metadata fields, every part optional. */
export const UpdateForm = t.Partial(t.Object({ file: PdfPart, ...MetadataForm.properties }))

const jsonBoolean = (name: string, description: string) =>
  t.Optional(
    withRule(
      t.Union([t.Boolean(), t.Literal(0), t.Literal(1), t.String()], {
        description: `${description}: a JSON boolean, or ${BOOLEAN_WORDS}`,
      }),
      jsonBooleanRule(name),
    ),
  )

/** The JSON update body, checked by routes/files/input.ts. Omitted fields stay unchanged; unknown fields are ignored. */
export const UpdateJson = t.Object(
  {
    filename: text('filename'),
    title: clearableText('title', { description: '"" or null clears it' }),
    desc: clearableText('desc', { description: '"" or null clears it' }),
    description: clearableText('desc', { label: 'description', description: 'Same as desc' }),
    allowDownload: jsonBoolean('allowDownload', 'Offer a download on the share page'),
    searchEngineVisible: jsonBoolean('searchEngineVisible', 'Let search engines index the share page'),
  },
  { additionalProperties: true, error: () => 'The JSON body must be an object, e.g. {"title": "Q3 report"}' },
)

/** The body of POST /api/files/:id/move: a team of yours, or null for your personal files. */
export const MoveFileJson = t.Object(
  {
    team: t.Union([t.String({ maxLength: 64 }), t.Null()], {
      description: 'A team id (you are its owner or editor), or null: your own files',
    }),
  },
  { additionalProperties: true, error: () => 'The body must be a JSON object' },
)
