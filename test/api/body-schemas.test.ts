import { expect, test } from 'bun:test'
import { LoginBody, NewTokenBody } from '../../src/routes/auth/model'
import { metadataFromForm, metadataFromJson } from '../../src/routes/files/input'
import { UpdateForm, UpdateJson, UploadForm } from '../../src/routes/files/model'
import { LinkJson } from '../../src/routes/links/model'
import { WebhookJson } from '../../src/routes/webhooks/model'
import { json, startTestApp } from '../support/harness'

const server = await startTestApp()
const asJson = (schema: unknown) => JSON.parse(JSON.stringify(schema))

test('the request bodies in the OpenAPI document are the schemas the bodies are checked with', async () => {
  const { paths } = await json(await server.call('GET', '/api/openapi.json'))
  const body = (path: string, method: string, type: string) => paths[path][method].requestBody.content[type].schema
  expect(body('/api/files/upload', 'post', 'multipart/form-data')).toEqual(asJson(UploadForm))
  expect(body('/api/files/{id}', 'put', 'application/json')).toEqual(asJson(UpdateJson))
  expect(body('/api/files/{id}', 'put', 'multipart/form-data')).toEqual(asJson(UpdateForm))
  expect(body('/api/auth/login', 'post', 'application/json')).toEqual(asJson(LoginBody))
  expect(body('/api/tokens', 'post', 'application/json')).toEqual(asJson(NewTokenBody))
  // Routes whose body Elysia checks are documented by the OpenAPI plugin from that same schema, in its own words
  // for a few keywords ("X or null" as type [X, "null"], a union of constants as an enum): the same fields.
  const fields = (schema: { properties: object; required?: string[] }) => ({
    names: Object.keys(schema.properties),
    required: schema.required,
  })
  expect(fields(body('/api/files/{id}/links', 'post', 'application/json'))).toEqual(fields(LinkJson))
  expect(fields(body('/api/links/{linkId}', 'patch', 'application/json'))).toEqual(fields(LinkJson))
  expect(fields(body('/api/webhooks', 'post', 'application/json'))).toEqual(fields(WebhookJson))
  // A JSON route documents JSON only (its parser refuses any other media type with 415).
  for (const [path, method] of [
    ['/api/auth/login', 'post'],
    ['/api/tokens', 'post'],
    ['/api/links/{linkId}', 'patch'],
  ] as const) {
    expect(Object.keys(paths[path][method].requestBody.content)).toEqual(['application/json'])
  }
})

test('a body with several mistakes is answered with the first, in the order of its schema', () => {
  const refusal = (parse: () => unknown) => {
    try {
      parse()
    } catch (error) {
      return (error as Error).message
    }
    return 'accepted'
  }
  expect(refusal(() => metadataFromJson({ allowDownload: 'maybe', title: 5 }))).toBe('title must be a string')
  expect(refusal(() => metadataFromJson({ searchEngineVisible: 'x', desc: 'a', description: 'b' }))).toBe(
    'desc and description were both sent with different values; send one of them',
  )
  expect(
    refusal(() =>
      metadataFromForm(
        new Map([
          ['searchEngineVisible', 'nah'],
          ['allowDownload', ''],
        ]),
      ),
    ),
  ).toBe('allowDownload must be one of true, false, 1, 0, yes, no, on, off (got an empty value)')
  // What the schema's rule accepts is stored in its normal form: NFC, and one description for both names.
  expect(metadataFromJson({ title: 'e\u0301', description: 'x', allowDownload: 'OFF' })).toEqual({
    title: '\u00e9',
    description: 'x',
    allowDownload: false,
  })
})
