import type { Static } from 'elysia'
import { type LinkInput, toLinkInput } from '../../core/links/link-input'
import { badRequest } from '../../errors'
import { bodyChecker } from '../../http/check-body'
import { parseFormBoolean, parseJsonBoolean } from '../../lib/booleans'
import type { MultipartBody } from '../../core/uploads/receive-multipart'
import { descriptionAgreesWithDesc, metadataText, storedText } from '../../core/files/rules'
import { DefaultLinkForm, MetadataForm, UpdateJson } from './model'

/** Metadata sent by a client, after every text and boolean rule (docs/api.md, Decisions on the interface's gaps), as it will be stored. Absent keys were not sent. */
export type MetadataInput = {
  filename?: string
  title?: string
  description?: string
  allowDownload?: boolean
  searchEngineVisible?: boolean
}

const checkForm = bodyChecker(MetadataForm, [descriptionAgreesWithDesc])
const checkJson = bodyChecker(UpdateJson, [descriptionAgreesWithDesc])
const checkDefaultLink = bodyChecker(DefaultLinkForm)

/** The default link's fields of an upload (password, expiresAt, maxViews). An empty one is left out: forms send empty inputs. */
export function defaultLinkFromForm(fields: Map<string, string>): LinkInput {
  const sent = Object.fromEntries(
    Object.keys(DefaultLinkForm.properties).flatMap((name) => {
      const value = fields.get(name)
      return value === undefined || value === '' ? [] : [[name, value]]
    }),
  )
  return toLinkInput(checkDefaultLink(sent))
}

/** What an upload's form says of the new file, checked: its metadata, its stored filename and its default link. */
export type NewFileInput = { metadata: MetadataInput; filename: string; defaultLink: LinkInput }

/**
 * An upload's form (POST /api/files/upload), checked in this order: the PDF part is there, the metadata fields,
 * the default link's fields, and the filename (the `filename` field, else the part's own name).
 */
export function newFileFromForm(body: MultipartBody): NewFileInput {
  if (!body.file) throw badRequest('The request has no file part; send the PDF as a part named "file" (curl -F "file=@report.pdf")')
  const metadata = metadataFromForm(body.fields)
  const defaultLink = {
    ...defaultLinkFromForm(body.fields),
    allowDownload: metadata.allowDownload,
    searchEngineVisible: metadata.searchEngineVisible,
  }
  return { metadata, defaultLink, filename: metadata.filename ?? filenameFromPart(body.file.clientFilename) }
}

/** The fields of a multipart body (upload or update), checked against MetadataForm. */
export function metadataFromForm(fields: Map<string, string>): MetadataInput {
  const form = checkForm(Object.fromEntries(fields))
  return stored(form, {
    allowDownload: form.allowDownload === undefined ? undefined : parseFormBoolean(form.allowDownload),
    searchEngineVisible: form.searchEngineVisible === undefined ? undefined : parseFormBoolean(form.searchEngineVisible),
  })
}

/** A JSON update body, checked against UpdateJson. */
export function metadataFromJson(body: unknown): MetadataInput {
  const json = checkJson(body)
  return stored(json, {
    allowDownload: json.allowDownload === undefined ? undefined : parseJsonBoolean(json.allowDownload),
    searchEngineVisible: json.searchEngineVisible === undefined ? undefined : parseJsonBoolean(json.searchEngineVisible),
  })
}

/** The display filename taken from the uploaded part when no filename field was sent. */
export function filenameFromPart(clientFilename: string): string {
  const check = metadataText('filename', clientFilename, 'the uploaded file name')
  if (!check.ok) throw badRequest(check.problem)
  return check.value
}

type CheckedTexts = Pick<Static<typeof UpdateJson>, 'filename' | 'title' | 'desc' | 'description'>
type Switches = Pick<MetadataInput, 'allowDownload' | 'searchEngineVisible'>

/** Checked fields in their stored form: NFC texts, "" for a cleared one, one description for desc and its alias. */
function stored(texts: CheckedTexts, switches: Switches): MetadataInput {
  const input: MetadataInput = {}
  if (texts.filename !== undefined) input.filename = storedText('filename', texts.filename)
  if (texts.title !== undefined) input.title = storedText('title', texts.title)
  const desc = texts.desc !== undefined ? texts.desc : texts.description // null (cleared) is a value here
  if (desc !== undefined) input.description = storedText('desc', desc)
  if (switches.allowDownload !== undefined) input.allowDownload = switches.allowDownload
  if (switches.searchEngineVisible !== undefined) input.searchEngineVisible = switches.searchEngineVisible
  return input
}
