import { describe, expect, test } from 'bun:test'
import type { RequestDto } from '../../src/routes/requests/model'
import { json, startTestApp, type TestServer } from '../support/harness'

// File requests, the owner's API (docs/requests.md): on every backend the API suites run on (embedded,
// PostgreSQL + S3, the balancer), so nothing here depends on which one.
const HOUR = 3_600_000
const future = (ms = 24 * HOUR) => new Date(Date.now() + ms).toISOString()

type Caller = { token: string }

const send = (server: TestServer, method: string, path: string, user: Caller, body?: unknown) =>
  server.call(method, path, {
    token: user.token,
    body: body === undefined ? null : JSON.stringify(body),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  })

async function newRequest(server: TestServer, user: Caller, body: Record<string, unknown> = {}): Promise<RequestDto> {
  const response = await send(server, 'POST', '/api/requests', user, { title: 'Your 2026 statements', ...body })
  const text = await response.text()
  expect(response.status, text).toBe(201)
  return JSON.parse(text).data
}

async function refusal(response: Response, status = 400): Promise<string> {
  const body = await json(response)
  expect({ status: response.status, success: body.success }).toEqual({ status, success: false })
  return body.error
}

const server = await startTestApp({ PDFSHARE_MAX_FILE_SIZE: '20MB' })
const alice = await server.user('alice')
const bob = await server.user('bob')

describe('the owner’s requests', () => {
  test('POST → 201 with every field of the Request and its defaults; GET, list newest first', async () => {
    const response = await send(server, 'POST', '/api/requests', alice, { title: '  Essays, term 1 ', message: 'One PDF each.\r\nThanks!' })
    expect(response.status).toBe(201)
    const request: RequestDto = (await json(response)).data
    expect(response.headers.get('location')).toBe(`https://pdf.example.test/base/api/requests/${request.id}`)
    expect(Object.keys(request).sort()).toEqual(
      [
        'id',
        'url',
        'title',
        'message',
        'ownerName',
        'maxFiles',
        'maxFileSize',
        'expiresAt',
        'hasPassword',
        'access',
        'allow',
        'deny',
        'roomId',
        'disabled',
        'notify',
        'received',
        'state',
        'createdAt',
        'updatedAt',
      ].sort(),
    )
    expect(request).toMatchObject({
      title: 'Essays, term 1',
      message: 'One PDF each.\nThanks!',
      ownerName: null,
      maxFiles: 10,
      maxFileSize: 20 * 1024 * 1024,
      expiresAt: null,
      hasPassword: false,
      access: 'open',
      allow: [],
      deny: [],
      roomId: null,
      disabled: false,
      notify: 'on',
      received: 0,
      state: 'active',
    })
    // The page's address: a slug of 128 random bits, not the id.
    const slug = /^https:\/\/pdf\.example\.test\/base\/u\/([A-Za-z0-9_-]{22})$/.exec(request.url)?.[1]
    expect(slug).toBeDefined()
    expect(slug).not.toBe(request.id)
    const second = await newRequest(server, alice, { title: 'CVs' })
    expect((await json(await send(server, 'GET', `/api/requests/${request.id}`, alice))).data).toEqual(request)
    const listed: RequestDto[] = (await json(await send(server, 'GET', '/api/requests', alice))).data
    expect(listed.map((one) => one.id).slice(0, 2)).toEqual([second.id, request.id])
  })

  test('every setting: limits, expiry, password (write-only), access with lists, a name to show, off, notify; PATCH changes what it sends', async () => {
    const request = await newRequest(server, alice, {
      maxFiles: 2,
      maxFileSize: 1024 * 1024,
      expiresAt: future(),
      password: 'open sesame',
      access: 'email',
      allow: ['@Acme.com', 'ada+cv@example.com'],
      deny: ['intern@acme.com'],
      ownerName: 'Ada, Acme Accounting',
      notify: 'daily',
      disabled: 'yes',
    })
    expect(request).toMatchObject({
      maxFiles: 2,
      maxFileSize: 1024 * 1024,
      hasPassword: true,
      access: 'email',
      allow: ['@acme.com', 'ada@example.com'],
      deny: ['intern@acme.com'],
      ownerName: 'Ada, Acme Accounting',
      notify: 'daily',
      disabled: true,
      state: 'disabled',
    })
    expect(JSON.stringify(request)).not.toContain('argon2')
    const changed = await send(server, 'PATCH', `/api/requests/${request.id}`, alice, { disabled: false, password: null, ownerName: null })
    expect(changed.status).toBe(200)
    const after: RequestDto = (await json(changed)).data
    expect(after).toMatchObject({ disabled: false, hasPassword: false, ownerName: null, maxFiles: 2, access: 'email', state: 'active' })
    expect(after.updatedAt > request.updatedAt).toBe(true)
    const expired = await send(server, 'PATCH', `/api/requests/${request.id}`, alice, { maxFiles: 1 })
    expect((await json(expired)).data.maxFiles).toBe(1)
  })

  test('bad fields are a 400 naming the field, and nothing is written', async () => {
    const before = (await json(await send(server, 'GET', '/api/requests', alice))).data.length
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'title must not be empty'],
      [{ title: 'x'.repeat(161) }, 'title must be at most 160 characters'],
      [{ title: 'a\u202Eb' }, 'title must not contain U+202E'],
      [{ message: 7 }, 'message must be a string, or null'],
      [{ maxFiles: 0 }, 'maxFiles must be an integer from 1 to 10000'],
      [{ maxFiles: 2.5 }, 'maxFiles must be an integer'],
      [{ maxFileSize: 21 * 1024 * 1024 }, 'maxFileSize must be at most 20971520 bytes (20 MB)'],
      [{ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt must be in the future'],
      [{ expiresAt: 'tomorrow' }, 'expiresAt must be an ISO 8601 date-time'],
      [{ password: 'abc' }, 'password must be 4 to 200 characters'],
      [{ access: 'anyone' }, 'access must be one of'],
      [{ allow: ['@acme.com'] }, 'allow and deny apply to requests that ask for an address'],
      [{ access: 'email', deny: ['"x"@acme.com'] }, 'quoted local part'],
      [{ access: 'verified-email' }, 'this server has no mail server'],
      [{ notify: 'weekly' }, 'notify must be one of'],
      [{ disabled: 'perhaps' }, 'disabled must be'],
    ]
    for (const [fields, problem] of cases) {
      const response = await send(server, 'POST', '/api/requests', alice, { title: 'x', ...fields })
      expect(`${JSON.stringify(fields)} → ${await refusal(response)}`).toContain(problem)
    }
    expect(await refusal(await send(server, 'POST', '/api/requests', alice, {}))).toContain('title')
    // A room that is not the owner's: a malformed id, one that names nothing, and bob's.
    const bobs = (await json(await send(server, 'POST', '/api/rooms', bob, { name: 'Bob’s room' }))).data.id as string
    for (const roomId of ['abc', 'AAAAAAAAAAAAAAAAAAAAAA', bobs]) {
      expect(await refusal(await send(server, 'POST', '/api/requests', alice, { title: 'x', roomId }), 404)).toBe('Room not found')
    }
    expect((await json(await send(server, 'GET', '/api/requests', alice))).data.length).toBe(before)
  })

  test('another user’s request is a 404 like a missing one, on every route, and stays as it was', async () => {
    const request = await newRequest(server, alice, { title: 'Private' })
    for (const [method, path, body] of [
      ['GET', `/api/requests/${request.id}`, undefined],
      ['PATCH', `/api/requests/${request.id}`, { title: 'Mine now' }],
      ['DELETE', `/api/requests/${request.id}`, undefined],
      ['GET', `/api/requests/${request.id}/files`, undefined],
      ['GET', '/api/requests/nosuchrequest', undefined],
      ['GET', '/api/requests/not%20an%20id/files', undefined],
    ] as const) {
      const response = await send(server, method, path, bob, body)
      expect(`${method} ${path} ${response.status} ${(await json(response)).error}`).toBe(`${method} ${path} 404 Request not found`)
    }
    expect((await json(await send(server, 'GET', '/api/requests', bob))).data).toEqual([])
    expect((await json(await send(server, 'GET', `/api/requests/${request.id}`, alice))).data).toEqual(request)
  })

  test('DELETE → 200; its page and its routes are gone', async () => {
    const request = await newRequest(server, alice, { title: 'Short-lived' })
    const deleted = await send(server, 'DELETE', `/api/requests/${request.id}`, alice)
    expect(deleted.status).toBe(200)
    expect(await json(deleted)).toEqual({ success: true, data: { id: request.id } })
    expect((await send(server, 'GET', `/api/requests/${request.id}`, alice)).status).toBe(404)
    expect((await send(server, 'DELETE', `/api/requests/${request.id}`, alice)).status).toBe(404)
  })
})
