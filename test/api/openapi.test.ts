import { expect, test } from 'bun:test'
import { FileSchema } from '../../src/modules/files/model'
import { VERSION } from '../../src/version'
import { json, startTestApp } from '../support/harness'

const server = await startTestApp()

test('GET /api/openapi.json is an OpenAPI 3 document of every API route, without authentication', async () => {
  const response = await server.call('GET', '/api/openapi.json')
  expect(response.status).toBe(200)
  const doc = await json(response)
  expect(doc.openapi).toMatch(/^3\./)
  expect(doc.info.version).toBe(VERSION)
  const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
  )
  expect(operations.sort()).toEqual(
    [
      'GET /api/health', 'GET /api/me', 'POST /api/files/upload', 'GET /api/files', 'GET /api/files/{id}',
      'PUT /api/files/{id}', 'DELETE /api/files/{id}', 'GET /api/files/{id}/content',
      'POST /api/auth/login', 'POST /api/auth/logout', 'GET /api/tokens', 'POST /api/tokens', 'DELETE /api/tokens/{id}',
    ].sort(),
  )
})

test('the File schema in the document is the one the routes validate their responses with', async () => {
  const doc = await json(await server.call('GET', '/api/openapi.json'))
  const upload = doc.paths['/api/files/upload'].post
  const documented = upload.responses['201'].content['application/json'].schema.properties.data
  expect(Object.keys(documented.properties).sort()).toEqual(Object.keys(FileSchema.properties).sort())
  expect(documented.required.sort()).toEqual([...FileSchema.required!].sort())
  expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data'])
  expect(upload.requestBody.content['multipart/form-data'].schema.properties.title.maxLength).toBe(160)
  const put = doc.paths['/api/files/{id}'].put
  expect(Object.keys(put.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data'])
  for (const status of ['400', '404', '413', '415', '401']) expect(put.responses[status]).toBeDefined()
})
