import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileSchema } from '../../src/routes/files/model'
import { VERSION } from '../../src/version'
import { json, startTestApp } from '../support/harness'
import { ROOT } from '../../scripts/support/process'
import { testRunEnv } from '../../scripts/support/test-run'

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
      'GET /api/health',
      'GET /api/me',
      'GET /api/search',
      'GET /api/audit',
      'GET /api/admin/audit',
      'GET /api/admin/users',
      'GET /api/admin/mail',
      'POST /api/admin/mail/test',
      'PATCH /api/admin/users/{id}',
      'GET /api/admin/teams',
      'PATCH /api/admin/teams/{id}',
      'DELETE /api/admin/users/{id}',
      'GET /api/admin/tokens',
      'DELETE /api/admin/tokens/{id}',
      'GET /api/admin/invitations',
      'POST /api/admin/invitations',
      'DELETE /api/admin/invitations/{id}',
      'GET /api/admin/branding',
      'PATCH /api/admin/branding',
      'PUT /api/admin/branding/logo',
      'DELETE /api/admin/branding/logo',
      'POST /api/auth/accept-invitation',
      'POST /api/auth/sso',
      'POST /api/auth/passkey/options',
      'POST /api/auth/proxy',
      'POST /api/auth/password-reset',
      'POST /api/auth/password-reset/complete',
      'PATCH /api/me',
      'PUT /api/me/email',
      'POST /api/auth/email/confirm',
      'POST /api/me/sso-link',
      'DELETE /api/me/sso-link',
      'POST /api/auth/passkey',
      'GET /api/me/passkeys',
      'POST /api/me/passkeys/options',
      'POST /api/me/passkeys',
      'DELETE /api/me/passkeys/{id}',
      'POST /api/me/two-factor',
      'POST /api/me/two-factor/confirm',
      'POST /api/me/two-factor/recovery-codes',
      'POST /api/me/two-factor/off',
      'POST /api/files/upload',
      'GET /api/files',
      'GET /api/files/{id}',
      'PUT /api/files/{id}',
      'POST /api/rooms',
      'GET /api/rooms',
      'GET /api/rooms/{id}',
      'PUT /api/rooms/{id}',
      'DELETE /api/rooms/{id}',
      'POST /api/teams',
      'GET /api/teams',
      'GET /api/teams/{id}',
      'PATCH /api/teams/{id}',
      'DELETE /api/teams/{id}',
      'GET /api/teams/{id}/members',
      'POST /api/teams/{id}/members',
      'PATCH /api/teams/{id}/members/{userId}',
      'DELETE /api/teams/{id}/members/{userId}',
      'POST /api/teams/{id}/session',
      'GET /api/teams/{id}/audit',
      'DELETE /api/teams/{id}/invitations/{invitationId}',
      'POST /api/files/{id}/move',
      'GET /api/rooms/{id}/links',
      'POST /api/rooms/{id}/links',
      'DELETE /api/files/{id}',
      'GET /api/files/{id}/content',
      'GET /api/files/{id}/links',
      'POST /api/files/{id}/links',
      'GET /api/links/{linkId}',
      'PATCH /api/links/{linkId}',
      'DELETE /api/links/{linkId}',
      'POST /api/requests',
      'GET /api/requests',
      'GET /api/requests/{id}',
      'PATCH /api/requests/{id}',
      'DELETE /api/requests/{id}',
      'GET /api/requests/{id}/files',
      'POST /u/{slug}/files',
      'GET /api/files/{id}/analytics',
      'GET /api/links/{linkId}/analytics',
      'GET /api/files/{id}/visits',
      'GET /api/links/{linkId}/visits',
      'GET /api/files/{id}/visits.csv',
      'GET /api/links/{linkId}/visits.csv',
      'GET /api/files/{id}/readers',
      'GET /api/links/{linkId}/readers',
      'GET /api/rooms/{id}/analytics',
      'GET /api/rooms/{id}/analytics.csv',
      'GET /api/files/{id}/acceptances',
      'GET /api/links/{linkId}/acceptances',
      'POST /api/readers/erase',
      'GET /api/notifications/channels',
      'POST /api/notifications/channels',
      'DELETE /api/notifications/channels/{id}',
      'POST /api/notifications/channels/{id}/test',
      'GET /api/notifications/deliveries',
      'GET /api/files/{id}/versions',
      'GET /api/files/{id}/versions/{versionId}/content',
      'POST /api/files/{id}/versions/{versionId}/restore',
      'DELETE /api/files/{id}/versions/{versionId}',
      'POST /api/auth/login',
      'POST /api/auth/logout',
      'GET /api/tokens',
      'POST /api/tokens',
      'DELETE /api/tokens/{id}',
      'GET /api/webhooks',
      'POST /api/webhooks',
      'DELETE /api/webhooks/{id}',
      'GET /api/webhooks/{id}/deliveries',
      'POST /api/webhooks/{id}/test',
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

test('the document passes `redocly lint` with the recommended rules without an error, and names the server', async () => {
  const text = await (await server.call('GET', '/api/openapi.json')).text()
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-openapi-')) // no redocly.yaml around: the recommended rules only
  try {
    writeFileSync(join(dir, 'openapi.json'), text)
    // The real CLI (devDependency @redocly/cli), run by Bun so the Node version on the machine does not matter.
    const cli = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js')
    const lint = Bun.spawn([process.execPath, cli, 'lint', 'openapi.json', '--extends=recommended', '--format=json'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...testRunEnv(), REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stdout, stderr, code] = await Promise.all([new Response(lint.stdout).text(), new Response(lint.stderr).text(), lint.exited])
    const report = JSON.parse(stdout || '{}') as {
      totals?: { errors: number }
      problems?: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[]
    }
    const errors = (report.problems ?? [])
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`)
    expect(errors).toEqual([])
    expect(report.totals?.errors, stderr).toBe(0)
    expect(code).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  // Paths are relative to the public URL, which may carry a prefix (here /base) for a reverse proxy.
  expect(JSON.parse(text).servers).toEqual([{ url: server.config.publicUrl, description: 'This pdfshare server (its public URL)' }])
})
