import { describe, expect, test } from 'bun:test'
import { issueToken } from '../../src/core/accounts/tokens/issue-token'
import { revokeToken } from '../../src/core/accounts/tokens/revoke-token'
import { form, json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { uploadPdf } from '../support/uploads'

// The isolation matrix: user B, with any token B holds, never reads, lists, changes, replaces, deletes or
// downloads user A's file through any endpoint, and every answer is the same as for a file that does not exist.
const server = await startTestApp({ PDFSHARE_MAX_UPLOADS_PER_USER: '32' })
const alice = await server.user('alice')
const bob = await server.user('bob')
const bobSecondToken = (await issueToken(server.ctx, { userName: 'bob', label: 'second', ttlSeconds: 3600 })).jwt
const bobRevoked = await issueToken(server.ctx, { userName: 'bob', label: 'revoked', ttlSeconds: 3600 })
await revokeToken(server.ctx, { tokenIdOrJwt: bobRevoked.token.id })
const pdf = makePdf({ text: () => 'alice only' })
const file = await uploadPdf(server, alice, pdf, { title: 'secret' })
const unknownId = 'AAAAAAAAAAAAAAAAAAAAAA'

type Attempt = { name: string; method: string; path: (id: string) => string; body?: () => BodyInit; headers?: Record<string, string> }
const attempts: Attempt[] = [
  { name: 'read', method: 'GET', path: (id) => `/api/files/${id}` },
  { name: 'download', method: 'GET', path: (id) => `/api/files/${id}/content` },
  { name: 'download a range', method: 'GET', path: (id) => `/api/files/${id}/content`, headers: { range: 'bytes=0-9' } },
  { name: 'download conditionally', method: 'GET', path: (id) => `/api/files/${id}/content`, headers: { 'if-none-match': '*' } },
  {
    name: 'change metadata (JSON)',
    method: 'PUT',
    path: (id) => `/api/files/${id}`,
    body: () => JSON.stringify({ title: 'pwned', allowDownload: false }),
    headers: { 'content-type': 'application/json' },
  },
  { name: 'change metadata (multipart)', method: 'PUT', path: (id) => `/api/files/${id}`, body: () => form(undefined, { title: 'pwned' }) },
  {
    name: 'replace the PDF',
    method: 'PUT',
    path: (id) => `/api/files/${id}`,
    body: () => form({ bytes: makePdf({ text: () => 'pwned' }) }),
  },
  {
    name: 'replace with an invalid body',
    method: 'PUT',
    path: (id) => `/api/files/${id}`,
    body: () => 'not json',
    headers: { 'content-type': 'application/json' },
  },
  { name: 'delete', method: 'DELETE', path: (id) => `/api/files/${id}` },
]

const withoutRequestId = async (response: Response) => ({
  status: response.status,
  body: await response.text(),
  type: response.headers.get('content-type'),
})

describe('isolation matrix', () => {
  for (const [who, token] of [
    ['bob', bob.token],
    ["bob's second token", bobSecondToken],
  ] as const) {
    for (const attempt of attempts) {
      test(`${who}: ${attempt.name} answers exactly as for a file that does not exist`, async () => {
        const call = (id: string) =>
          server.call(attempt.method, attempt.path(id), { token, body: attempt.body?.(), headers: attempt.headers })
        const foreign = await withoutRequestId(await call(file.id))
        const missing = await withoutRequestId(await call(unknownId))
        expect(foreign).toEqual(missing)
        expect(foreign.status).toBe(404)
      })
    }
  }

  test("bob's revoked or missing token: 401 for every attempt, the same as for an unknown id", async () => {
    for (const attempt of attempts) {
      for (const token of [bobRevoked.jwt, undefined]) {
        const foreign = await server.call(attempt.method, attempt.path(file.id), {
          token,
          body: attempt.body?.(),
          headers: attempt.headers,
        })
        const missing = await server.call(attempt.method, attempt.path(unknownId), {
          token,
          body: attempt.body?.(),
          headers: attempt.headers,
        })
        expect([foreign.status, missing.status]).toEqual([401, 401])
        expect(await foreign.text()).toBe(await missing.text())
      }
    }
  })

  test("bob's list, usage and openapi reveal nothing of alice's file", async () => {
    for (const token of [bob.token, bobSecondToken]) {
      expect((await json(await server.call('GET', '/api/files?limit=100', { token }))).data).toEqual([])
      expect((await json(await server.call('GET', '/api/me', { token }))).data.usage).toEqual({ files: 0, bytes: 0 })
    }
    const everything = JSON.stringify(await json(await server.call('GET', '/api/openapi.json')))
    expect(everything).not.toContain(file.id)
  })

  test("after all of it, alice's file is exactly as uploaded", async () => {
    const now = (await json(await server.call('GET', `/api/files/${file.id}`, { token: alice.token }))).data
    expect(now).toEqual(file)
    const bytes = new Uint8Array(await (await server.call('GET', `/api/files/${file.id}/content`, { token: alice.token })).arrayBuffer())
    expect(bytes).toEqual(pdf)
  })
})
