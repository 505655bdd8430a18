import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { setQuota } from '../../src/core/accounts/users/users'
import type { FileDto } from '../../src/routes/files/model'
import type { RequestDto } from '../../src/routes/requests/model'
import { makePdf } from '../../scripts/support/pdf'
import { form, json, startTestApp, type TestServer, tempFilesOf } from '../support/harness'

// File requests, the sender's side (docs/requests.md): the page at /u/<slug> and POST /u/<slug>/files, through
// HTTP on every backend the API suites run on. What a sender sends is an ordinary file of the owner, private
// (its link disabled) until the owner shares it; every refusal stores nothing.

type Caller = { token: string }

// Upload slots enough for the race of six (the per-request slots are the per-user bound).
const server = await startTestApp({ PDFSHARE_MAX_FILE_SIZE: '20MB', PDFSHARE_MAX_UPLOADS_PER_USER: '8' })
const alice = await server.user('alice')
const bob = await server.user('bob')

async function newRequest(
  user: Caller,
  body: Record<string, unknown> = {},
  on: TestServer = server,
): Promise<RequestDto & { slug: string }> {
  const response = await on.call('POST', '/api/requests', {
    token: user.token,
    body: JSON.stringify({ title: 'Your 2026 statements', ...body }),
    headers: { 'content-type': 'application/json' },
  })
  const text = await response.text()
  expect(response.status, text).toBe(201)
  const request: RequestDto = JSON.parse(text).data
  return { ...request, slug: request.url.split('/u/')[1]! }
}

const sendTo = (slug: string, body: FormData | BodyInit, headers: Record<string, string> = {}, on: TestServer = server) =>
  on.call('POST', `/u/${slug}/files`, { body, headers })
const pdfForm = (fields: Record<string, string> = {}, name = 'statement.pdf') => form({ bytes: makePdf(), name }, fields)

async function receivedFiles(user: Caller, requestId: string, on: TestServer = server): Promise<FileDto[]> {
  const response = await on.call('GET', `/api/requests/${requestId}/files`, { token: user.token })
  expect(response.status).toBe(200)
  return (await json(response)).data
}

async function refusedWith(response: Response, status: number, code: string): Promise<void> {
  const body = await response.text()
  expect({ status: response.status, code: JSON.parse(body).code }, body).toEqual({ status, code })
}

describe('the sender’s page', () => {
  test('shows the title, the message and a plain form; nothing of the owner’s account unless a name was chosen', async () => {
    const plain = await newRequest(alice, { title: 'Essays <term 1>', message: 'One PDF each.\nThanks!' })
    const response = await server.call('GET', `/u/${plain.slug}`)
    expect(response.status).toBe(200)
    const page = await response.text()
    expect(page).toContain('Essays &lt;term 1&gt;')
    expect(page).toContain('<p>One PDF each.</p>')
    expect(page).toContain(`action="/base/u/${plain.slug}/files" enctype="multipart/form-data"`)
    expect(page).not.toContain('alice')
    // The page's one script (its drop zone) comes from our origin; the form works without it. Its words come in the
    // page as a JSON data block, which never runs (docs/languages.md).
    expect(page.match(/<script[^>]*>/g)).toEqual([
      '<script type="application/json" id="viewer-messages">',
      expect.stringMatching(/^<script type="module" src="\/base\/assets\/sender-[\w]+\.js">$/),
    ])
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'")

    const named = await newRequest(alice, { ownerName: 'Ms. Lovelace' })
    expect(await (await server.call('GET', `/u/${named.slug}`)).text()).toContain('Asked by Ms. Lovelace')
    expect((await server.call('GET', '/u/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
  })
})

describe('POST /u/:slug/files', () => {
  test('a request with a room: what arrives joins it last, at its top folder; another user’s room is refused; a deleted room leaves the request without one', async () => {
    const newRoom = async (user: Caller, name: string) => {
      const response = await server.call('POST', '/api/rooms', {
        token: user.token,
        body: JSON.stringify({ name }),
        headers: { 'content-type': 'application/json' },
      })
      expect(response.status).toBe(201)
      return (await json(response)).data.id as string
    }
    const roomItems = async (id: string) =>
      (await json(await server.call('GET', `/api/rooms/${id}`, { token: alice.token }))).data.items as { fileId: string; folder: string }[]
    const setRoom = (id: string, roomId: string | null, user: Caller = alice) =>
      server.call('PATCH', `/api/requests/${id}`, {
        token: user.token,
        body: JSON.stringify({ roomId }),
        headers: { 'content-type': 'application/json' },
      })
    const room = await newRoom(alice, 'Statements 2026')
    const request = await newRequest(alice, { roomId: room })
    expect(request.roomId).toBe(room)
    for (const name of ['March.pdf', 'April.pdf']) expect((await sendTo(request.slug, pdfForm({}, name))).status).toBe(201)
    const arrived = await receivedFiles(alice, request.id)
    expect(await roomItems(room)).toEqual([...arrived].reverse().map((file) => expect.objectContaining({ fileId: file.id, folder: '' })))

    // Another user's room: 404, and the request keeps its room.
    const bobs = await newRoom(bob, 'Bob’s room')
    await refusedWith(await setRoom(request.id, bobs), 404, 'not_found')
    expect((await json(await server.call('GET', `/api/requests/${request.id}`, { token: alice.token }))).data.roomId).toBe(room)

    // The room deleted: the request has none, and a file sent now still arrives (in no room).
    expect((await server.call('DELETE', `/api/rooms/${room}`, { token: alice.token })).status).toBe(200)
    expect((await json(await server.call('GET', `/api/requests/${request.id}`, { token: alice.token }))).data.roomId).toBeNull()
    expect((await sendTo(request.slug, pdfForm({}, 'May.pdf'))).status).toBe(201)
    expect(await receivedFiles(alice, request.id)).toHaveLength(3)

    // A room set later takes what arrives from then on; null takes it off.
    const later = await newRoom(alice, 'Later')
    expect((await setRoom(request.id, later)).status).toBe(200)
    expect((await sendTo(request.slug, pdfForm({}, 'June.pdf'))).status).toBe(201)
    expect((await roomItems(later)).length).toBe(1)
    expect((await json(await setRoom(request.id, null))).data.roomId).toBeNull()
  })

  test('201 with a receipt; the owner’s file with its source, its link disabled; another user never sees it', async () => {
    const request = await newRequest(alice, { maxFiles: 3 })
    const pdf = makePdf({ text: () => 'a statement' })
    const response = await sendTo(
      request.slug,
      form({ bytes: pdf, name: 'March.pdf' }, { name: 'Ada', email: 'Ada@Example.com', note: 'As asked' }),
    )
    expect(response.status).toBe(201)
    const sha256 = new Bun.CryptoHasher('sha256').update(pdf).digest('hex')
    expect(await json(response)).toEqual({ files: [{ filename: 'March.pdf', size: pdf.length, sha256 }] })

    const file = (await receivedFiles(alice, request.id))[0]!
    expect(file.source).toEqual({ requestId: request.id, name: 'Ada', email: 'ada@example.com', note: 'As asked' })
    expect(file.sha256).toBe(sha256)
    const links = await json(await server.call('GET', `/api/files/${file.id}/links`, { token: alice.token }))
    expect(links.data.map((link: { disabled: boolean }) => link.disabled)).toEqual([true])
    expect((await server.call('GET', new URL(file.shareUrl).pathname.replace(/^\/base/, ''))).status).toBe(410)
    expect((await json(await server.call('GET', `/api/requests/${request.id}`, { token: alice.token }))).data.received).toBe(1)

    expect((await server.call('GET', `/api/files/${file.id}`, { token: bob.token })).status).toBe(404)
    expect((await server.call('GET', `/api/requests/${request.id}/files`, { token: bob.token })).status).toBe(404)
    const bobs = await json(await server.call('GET', '/api/files', { token: bob.token }))
    expect(bobs.data).toEqual([])
  })

  test('a browser’s form gets a receipt page', async () => {
    const request = await newRequest(alice)
    const response = await sendTo(request.slug, pdfForm({}, 'Essay.pdf'), { accept: 'text/html' })
    expect(response.status).toBe(201)
    expect(await response.text()).toContain('<strong>Essay.pdf</strong>')
  })

  test('six parallel uploads to a request of maxFiles 2 store exactly two', async () => {
    const request = await newRequest(alice, { maxFiles: 2 })
    const answers = await Promise.all(Array.from({ length: 6 }, () => sendTo(request.slug, pdfForm())))
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([201, 201, 410, 410, 410, 410])
    expect(await receivedFiles(alice, request.id)).toHaveLength(2)
    expect((await json(await server.call('GET', `/api/requests/${request.id}`, { token: alice.token }))).data).toMatchObject({
      received: 2,
      state: 'full',
    })
    expect(tempFilesOf(server)).toEqual([])
  })

  test('a disabled, an expired and a full request → 410 request_closed, nothing stored', async () => {
    const disabled = await newRequest(alice)
    await server.call('PATCH', `/api/requests/${disabled.id}`, {
      token: alice.token,
      body: JSON.stringify({ disabled: true }),
      headers: { 'content-type': 'application/json' },
    })
    await refusedWith(await sendTo(disabled.slug, pdfForm()), 410, 'request_closed')
    expect((await server.call('GET', `/u/${disabled.slug}`)).status).toBe(410)

    const expired = await newRequest(alice, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
    const { requests } = server.ctx.db.tables
    await server.ctx.db.orm
      .update(requests)
      .set({ expiresAt: Date.now() - 1000 })
      .where(eq(requests.id, expired.id))
    await refusedWith(await sendTo(expired.slug, pdfForm()), 410, 'request_closed')

    const full = await newRequest(alice, { maxFiles: 1 })
    expect((await sendTo(full.slug, pdfForm())).status).toBe(201)
    await refusedWith(await sendTo(full.slug, pdfForm()), 410, 'request_closed')

    for (const request of [disabled, expired]) expect(await receivedFiles(alice, request.id)).toEqual([])
    expect(await receivedFiles(alice, full.id)).toHaveLength(1)
    expect(tempFilesOf(server)).toEqual([])
  })

  test('a renamed executable → 415 not_pdf, nothing stored', async () => {
    const request = await newRequest(alice)
    const exe = new Uint8Array(4096)
    exe.set(new TextEncoder().encode('MZ\x90\x00\x03\x00\x00\x00PE\x00\x00'))
    await refusedWith(await sendTo(request.slug, form({ bytes: exe, name: 'invoice.pdf', type: 'application/pdf' })), 415, 'not_pdf')
    expect(await receivedFiles(alice, request.id)).toEqual([])
    expect(tempFilesOf(server)).toEqual([])
  })

  test('a body past the request’s maxFileSize is cut off as it streams, long before its end; nothing stored', async () => {
    const request = await newRequest(alice, { maxFileSize: 256 * 1024 })
    const boundary = 'senderBoundary'
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    )
    const CHUNK = 64 * 1024
    const TOTAL_CHUNKS = 320 // 20 MiB: under the server's cap, 80 times the request's
    let pulls = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        if (pulls === 1) controller.enqueue(head)
        else if (pulls <= TOTAL_CHUNKS) controller.enqueue(new Uint8Array(CHUNK))
        else controller.close()
      },
    })
    // In process, no Content-Length: how much of the body the server read is seen only here.
    const response = await server.callInProcess('POST', `/u/${request.slug}/files`, {
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
    await refusedWith(response, 413, 'file_too_large')
    expect(pulls).toBeLessThan(TOTAL_CHUNKS / 4)
    expect(await receivedFiles(alice, request.id)).toEqual([])
    expect(tempFilesOf(server)).toEqual([])
  })

  test('a full quota → 507 that tells the sender nothing of the owner’s usage; nothing stored', async () => {
    const carol = await server.user('carol')
    const request = await newRequest(carol)
    await setQuota(server.ctx, { name: 'carol', maxFiles: 1 })
    expect((await sendTo(request.slug, pdfForm())).status).toBe(201)
    const refused = await sendTo(request.slug, pdfForm())
    expect(await json(refused)).toEqual({
      success: false,
      error: 'This file request cannot take more files right now; nothing was stored',
      code: 'insufficient_storage',
    })
    expect(refused.status).toBe(507)
    expect(await receivedFiles(carol, request.id)).toHaveLength(1)
    expect((await json(await server.call('GET', `/api/requests/${request.id}`, { token: carol.token }))).data.received).toBe(1)
  })

  test('a password: 403 sender_refused before it is given; a wrong one 401; the right one lets the sender send', async () => {
    const request = await newRequest(alice, { password: 'correct horse' })
    await refusedWith(await sendTo(request.slug, pdfForm()), 403, 'sender_refused')
    expect(await (await server.call('GET', `/u/${request.slug}`)).text()).toContain('Password required')
    const unlock = (password: string) =>
      server.call('POST', `/u/${request.slug}`, {
        body: new URLSearchParams({ password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    expect((await unlock('wrong horse')).status).toBe(401)
    const right = await unlock('correct horse')
    expect(right.status).toBe(200)
    const cookie = right.headers.get('set-cookie')!.split(';')[0]!
    expect(cookie).toStartWith('pdfshare_send_unlock=')
    expect((await sendTo(request.slug, pdfForm(), { cookie })).status).toBe(201)
    expect(await receivedFiles(alice, request.id)).toHaveLength(1)
  })

  test('access email: the address is required and judged by the allow and deny lists', async () => {
    const request = await newRequest(alice, { access: 'email', allow: ['@example.com'], deny: ['intern@example.com'] })
    await refusedWith(await sendTo(request.slug, pdfForm()), 400, 'invalid_request')
    await refusedWith(await sendTo(request.slug, pdfForm({ email: 'eve@elsewhere.test' })), 403, 'sender_refused')
    await refusedWith(await sendTo(request.slug, pdfForm({ email: 'intern+x@example.com' })), 403, 'sender_refused')
    expect((await sendTo(request.slug, pdfForm({ email: 'ada@example.com' }))).status).toBe(201)
    expect((await receivedFiles(alice, request.id)).map((file) => file.source?.email)).toEqual(['ada@example.com'])
  })

  test('a form another site made the browser send → 403, nothing stored', async () => {
    const request = await newRequest(alice)
    await refusedWith(await sendTo(request.slug, pdfForm(), { 'sec-fetch-site': 'cross-site' }), 403, 'sender_refused')
    expect(await receivedFiles(alice, request.id)).toEqual([])
  })

  test('Idempotency-Key: a retry gets the kept receipt and stores nothing, also when that very upload filled the request', async () => {
    const request = await newRequest(alice, { maxFiles: 1 })
    const pdf = makePdf({ text: () => 'retried' })
    const keyedSend = (key: string, fields: Record<string, string> = { note: 'March' }) =>
      sendTo(request.slug, form({ bytes: pdf, name: 'March.pdf' }, fields), { 'idempotency-key': key })
    const first = await keyedSend('retry-1')
    expect(first.status).toBe(201)
    const receipt = await json(first)
    expect(first.headers.get('idempotent-replayed')).toBeNull()

    const again = await keyedSend('retry-1')
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await json(again)).toEqual(receipt)
    // Another body under the key is not its retry; without a key, the request is full.
    await refusedWith(await keyedSend('retry-1', { note: 'April' }), 422, 'idempotency_key_reused')
    await refusedWith(await sendTo(request.slug, pdfForm()), 410, 'request_closed')
    await refusedWith(await keyedSend('retry-2'), 410, 'request_closed')

    expect(await receivedFiles(alice, request.id)).toHaveLength(1)
    expect((await json(await server.call('GET', `/api/requests/${request.id}`, { token: alice.token }))).data.received).toBe(1)
    // The sender's keys are not the owner's: the same key on the owner's own upload is a fresh write.
    const own = await server.call('POST', '/api/files/upload', {
      token: alice.token,
      body: form({ bytes: pdf, name: 'March.pdf' }),
      headers: { 'idempotency-key': 'retry-1' },
    })
    expect(own.status).toBe(201)
    expect(own.headers.get('idempotent-replayed')).toBeNull()
    expect(tempFilesOf(server)).toEqual([])
  })
})
