import { badRequest } from '../../errors'
import { ACCEPTED_BOOLEANS, parseFormBoolean, parseJsonBoolean } from '../../lib/booleans'
import { checkText } from '../../lib/text'
import { TEXT_LIMITS } from '../../shared/file-shapes'

/** Metadata sent by a client, after every rule of contract §3. Absent keys were not sent. */
export type MetadataInput = {
  filename?: string
  title?: string
  description?: string
  allowDownload?: boolean
  searchEngineVisible?: boolean
}

type TextField = 'filename' | 'title' | 'desc'
type BooleanField = 'allowDownload' | 'searchEngineVisible'

/** Fields of a multipart body (upload or update). Unknown fields are ignored. */
export function metadataFromForm(fields: Map<string, string>): MetadataInput {
  return collect({
    text: (name) => fields.get(name),
    boolean: (name) => {
      const raw = fields.get(name)
      return raw === undefined ? undefined : booleanOrThrow(name, JSON.stringify(raw), parseFormBoolean(raw))
    },
  })
}

/** A JSON update body. Unknown fields are ignored; `null` clears title and desc like "". */
export function metadataFromJson(body: unknown): MetadataInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The JSON body must be an object, e.g. {"title": "Q3 report"}')
  }
  const record = body as Record<string, unknown>
  return collect({
    text: (name) => {
      const value = record[name]
      if (value === undefined) return undefined
      if (value === null && name !== 'filename') return ''
      if (typeof value !== 'string') throw badRequest(`${name} must be a string`)
      return value
    },
    boolean: (name) => {
      const value = record[name]
      return value === undefined ? undefined : booleanOrThrow(name, JSON.stringify(value), parseJsonBoolean(value))
    },
  })
}

/** The display filename taken from the uploaded part when no filename field was sent. */
export function filenameFromPart(clientFilename: string): string {
  return checkedText('filename', clientFilename, 'the uploaded file name')
}

type Source = {
  text: (name: TextField | 'description') => string | undefined
  boolean: (name: BooleanField) => boolean | undefined
}

function collect(source: Source): MetadataInput {
  const input: MetadataInput = {}
  const filename = source.text('filename')
  if (filename !== undefined) input.filename = checkedText('filename', filename)
  const title = source.text('title')
  if (title !== undefined) input.title = checkedText('title', title)

  // desc and description are one field under two names; both may be sent only when they agree.
  const desc = source.text('desc')
  const description = source.text('description')
  const descValue = desc !== undefined ? checkedText('desc', desc) : undefined
  const descriptionValue = description !== undefined ? checkedText('desc', description, 'description') : undefined
  if (descValue !== undefined && descriptionValue !== undefined && descValue !== descriptionValue) {
    throw badRequest('desc and description were both sent with different values; send one of them')
  }
  const chosen = descValue ?? descriptionValue
  if (chosen !== undefined) input.description = chosen

  const allowDownload = source.boolean('allowDownload')
  if (allowDownload !== undefined) input.allowDownload = allowDownload
  const searchEngineVisible = source.boolean('searchEngineVisible')
  if (searchEngineVisible !== undefined) input.searchEngineVisible = searchEngineVisible
  return input
}

function checkedText(field: TextField, raw: string, label: string = field): string {
  const check = checkText(raw, { max: TEXT_LIMITS[field], multiline: field === 'desc' })
  if (!check.ok) throw badRequest(`${label} ${check.problem}`)
  if (field === 'filename') {
    if (check.value.trim() === '') throw badRequest(`${label} must not be empty`)
    if (/[/\\]/.test(check.value)) throw badRequest(`${label} must not contain / or \\`)
  }
  return check.value
}

function booleanOrThrow(name: BooleanField, shown: string, value: boolean | undefined): boolean {
  if (value === undefined) {
    throw badRequest(`${name} must be one of ${ACCEPTED_BOOLEANS} (got ${shown === `""` ? "an empty value" : shown})`)
  }
  return value
}
