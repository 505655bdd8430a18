import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { makePdf } from '../../scripts/support/pdf'
import { WEBHOOK_EVENTS } from '../../src/shared/webhook-shapes'
import { setQuota } from '../../src/core/accounts/users/users'
import type { FileDto } from '../../src/routes/files/model'
import type { DeliveryDto, NewWebhookDto } from '../../src/routes/webhooks/model'
import { WebhookEventSchema } from '../../src/routes/webhooks/model'
import { type Dispatcher, startWebhookDispatcher } from '../../src/core/webhooks/dispatcher'
import { form, json, startTestApp, type TestServer } from '../support/harness'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { eventually, type Received, startReceiver } from '../support/webhook-receiver'

type User = Awaited<ReturnType<TestServer['user']>>

/**
 * An app on real libSQL with its dispatcher running (short attempt limit, fast poll) and a clock the test can move.
 * The attempt limit is short enough for the test of a receiver that does not answer, and long enough for the
 * test's own receiver to answer on a machine busy with other tests (at 0.7 s, it sometimes did not).
 */
async function webhookApp(env: Record<string, string> = { PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' }, timeoutMs = 3_000) {
  const server = await startTestApp(env)
  const clock = { offset: 0 }
  server.ctx.now = () => Date.now() + clock.offset
  const dispatcher = startWebhookDispatcher(server.ctx, { timeoutMs, pollMs: 100 })
  afterAll(() => dispatcher.stop())
  return { server, clock, dispatcher }
}

const receiver = startReceiver()
const main = await webhookApp()
const { server } = main

async function addHook(user: User, url: string, events: readonly string[] = WEBHOOK_EVENTS, on = server): Promise<NewWebhookDto> {
  const response = await on.call('POST', '/api/webhooks', {
    token: user.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, events }),
  })
  const body = await json(response)
  expect(response.status, JSON.stringify(body)).toBe(201)
  return body.data
}

async function log(user: User, id: string, on = server, query = ''): Promise<DeliveryDto[]> {
  const response = await on.call('GET', `/api/webhooks/${id}/deliveries${query}`, { token: user.token })
  expect(response.status).toBe(200)
  return (await json(response)).data
}

/** Moves the app's clock past the first retry delay (10 s) and wakes the dispatcher. */
function skipRetryDelay(app: { clock: { offset: number }; dispatcher: Dispatcher }) {
  app.clock.offset += 11_000
  app.dispatcher.nudge()
}

/** A delivered body, as the receiver's library hands it over once the signature checks out. */
type Delivered = { type: string; timestamp: string; data: { file?: Partial<FileDto>; webhook?: { id: string } } }
const verify = (secret: string, request: Received) => new Webhook(secret).verify(request.body, request.headers) as Delivered

const post = (user: User, path: string, body: unknown, on = server) =>
  on.call('POST', path, { token: user.token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('the webhooks API', () => {
  test('create answers 201 with the secret once (whsec_, 24 bytes); list shows the webhook without it; delete, then 404', async () => {
    const bob = await server.user()
    const created = await addHook(bob, receiver.url('/crud'), ['link.viewed', 'file.uploaded', 'file.uploaded'])
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24)
    expect(created.events).toEqual(['file.uploaded', 'link.viewed']) // once each, in the documented order
    expect(created.url).toBe(receiver.url('/crud'))
    const listed = await json(await server.call('GET', '/api/webhooks', { token: bob.token }))
    expect(listed).toEqual({
      success: true,
      data: [{ id: created.id, url: created.url, events: created.events, createdAt: created.createdAt }],
    })
    expect(JSON.stringify(listed)).not.toContain(created.secret)
    expect((await server.call('DELETE', `/api/webhooks/${created.id}`, { token: bob.token })).status).toBe(200)
    expect((await server.call('DELETE', `/api/webhooks/${created.id}`, { token: bob.token })).status).toBe(404)
    expect((await json(await server.call('GET', '/api/webhooks', { token: bob.token }))).data).toEqual([])
  })

  test('the event schema lists exactly WEBHOOK_EVENTS', () => {
    expect(WebhookEventSchema.anyOf.map((literal) => literal.const)).toEqual([...WEBHOOK_EVENTS])
  })

  test.each([
    [{ events: ['file.uploaded'] }, 'url must be an absolute http(s) URL of at most 2000 characters'],
    [{ url: 'not a url', events: ['file.uploaded'] }, 'url must be an absolute http(s) URL such as https://ntfy.example/pdf'],
    [{ url: 'ftp://example.com/x', events: ['file.uploaded'] }, 'url must use http or https'],
    [
      { url: 'https://user:pw@example.com/x', events: ['file.uploaded'] },
      'url must not carry credentials (user:password@); put a token in the path or query',
    ],
    [
      { url: `https://example.com/${'a'.repeat(2000)}`, events: ['file.uploaded'] },
      'url must be an absolute http(s) URL of at most 2000 characters',
    ],
    [{ url: 'https://example.com/x', events: [] }, `events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`],
    [{ url: 'https://example.com/x', events: ['file.nope'] }, `events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`],
    [{ url: 'https://example.com/x' }, `events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`],
    [[], 'The JSON body must be an object, e.g. {"url": "https://ntfy.example/pdf", "events": ["file.uploaded"]}'],
  ])('POST %j → 400 %s', async (body, message) => {
    const user = await server.user()
    const response = await post(user, '/api/webhooks', body)
    expect(response.status).toBe(400)
    expect(await json(response)).toEqual({ success: false, error: message, code: 'invalid_request' })
  })

  test('a body that is not JSON → 415; the 21st webhook → 403; a malformed cursor or limit → 400', async () => {
    const user = await server.user()
    const form = await server.call('POST', '/api/webhooks', { token: user.token, body: 'url=x' })
    expect(form.status).toBe(415)
    let first: NewWebhookDto | undefined
    for (let i = 0; i < 20; i++) first ??= await addHook(user, `https://example.com/${i}`, ['file.deleted'])
    for (let i = 1; i < 20; i++) await addHook(user, `https://example.com/${i}`, ['file.deleted'])
    const refused = await post(user, '/api/webhooks', { url: 'https://example.com/21', events: ['file.deleted'] })
    expect(refused.status).toBe(403)
    expect((await json(refused)).error).toBe('A user may have at most 20 webhooks; delete one first (DELETE /api/webhooks/ID)')
    for (const query of ['?cursor=abc', '?cursor=-1', '?limit=0', '?limit=101']) {
      const response = await server.call('GET', `/api/webhooks/${first!.id}/deliveries${query}`, { token: user.token })
      expect(response.status, query).toBe(400)
    }
  })

  test("another user's webhook is not found: list, delete, deliveries and test all answer as for a missing one", async () => {
    const bob = await server.user()
    const eve = await server.user()
    const bobs = await addHook(bob, receiver.url('/isolation'), ['file.uploaded'])
    expect((await json(await server.call('GET', '/api/webhooks', { token: eve.token }))).data).toEqual([])
    for (const [method, path] of [
      ['DELETE', `/api/webhooks/${bobs.id}`],
      ['GET', `/api/webhooks/${bobs.id}/deliveries`],
      ['POST', `/api/webhooks/${bobs.id}/test`],
      ['GET', '/api/webhooks/no-such-id/deliveries'],
      ['DELETE', '/api/webhooks/..%2F..'],
    ] as const) {
      const response = await server.call(method, path, { token: eve.token })
      expect(response.status, `${method} ${path}`).toBe(404)
      expect(await json(response)).toEqual({ success: false, error: 'Webhook not found', code: 'not_found' })
    }
    await uploadPdf(server, eve) // eve's file is none of bob's webhooks' business
    await main.dispatcher.idle()
    expect(await log(bob, bobs.id)).toEqual([])
    expect((await server.call('GET', '/api/webhooks', { token: bob.token })).status).toBe(200)
    expect(receiver.at('/isolation')).toEqual([])
  })
})

describe('deliveries', () => {
  test('file.uploaded, file.replaced and file.deleted arrive signed; the standardwebhooks library verifies each; payloads are the File', async () => {
    const bob = await server.user()
    const all = await addHook(bob, receiver.url('/events'))
    const onlyDeleted = await addHook(bob, receiver.url('/deleted-only'), ['file.deleted'])
    const uploaded = await uploadPdf(server, bob, makePdf({ text: () => 'first' }), { title: 'Q3' })
    const replacement = makePdf({ text: () => 'second' })
    const put = await server.call('PUT', `/api/files/${uploaded.id}`, {
      token: bob.token,
      body: form({ bytes: replacement, name: 'q3-v2.pdf' }, { title: 'Q3 final' }),
    })
    const putBody = await put.text()
    expect(put.status, putBody).toBe(200)
    const replaced: FileDto = JSON.parse(putBody).data
    const deleted = await server.call('DELETE', `/api/files/${uploaded.id}`, { token: bob.token })
    expect(deleted.status, await deleted.clone().text()).toBe(200)

    await eventually(() => expect(receiver.at('/events')).toHaveLength(3))
    await eventually(() => expect(receiver.at('/deleted-only')).toHaveLength(1))
    const bodies = receiver.at('/events').map((request) => verify(all.secret, request))
    const byType = Object.fromEntries(bodies.map((body) => [body.type, body]))
    expect(Object.keys(byType).sort()).toEqual(['file.deleted', 'file.replaced', 'file.uploaded'])
    expect(byType['file.uploaded']!.data).toEqual({ file: uploaded })
    expect(byType['file.uploaded']!.timestamp).toBe(uploaded.createdAt)
    expect(byType['file.replaced']!.data).toEqual({ file: replaced })
    expect(replaced.title).toBe('Q3 final')
    expect(replaced.sha256).not.toBe(uploaded.sha256)
    expect(byType['file.deleted']!.data).toEqual({ file: { id: uploaded.id, filename: replaced.filename } })
    expect(verify(onlyDeleted.secret, receiver.at('/deleted-only')[0]!).type).toBe('file.deleted')

    const request = receiver.at('/events')[0]!
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.headers['user-agent']).toBe('pdfshare-webhooks')
    expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30)
    // Signed with its own webhook's secret: another secret does not verify, nor does a changed body.
    expect(() => verify(onlyDeleted.secret, request)).toThrow()
    expect(() => verify(all.secret, { ...request, body: request.body.replace('Q3', 'Q4') })).toThrow()
    // The log agrees, once each answer is recorded (the receiver has the request before the delivery's row is
    // updated with its answer).
    let entries: Awaited<ReturnType<typeof log>> = []
    await eventually(async () => {
      entries = await log(bob, all.id)
      expect(entries.every((entry) => entry.status === 'delivered')).toBe(true)
    })
    expect(entries.map((entry) => [entry.event, entry.status, entry.attempts, entry.lastStatus, entry.lastError])).toEqual([
      ['file.deleted', 'delivered', 1, 204, null],
      ['file.replaced', 'delivered', 1, 204, null],
      ['file.uploaded', 'delivered', 1, 204, null],
    ])
    expect(entries.map((entry) => entry.id).sort()).toEqual(
      receiver
        .at('/events')
        .map((r) => r.headers['webhook-id']!)
        .sort(),
    )
  })

  test('restoring a previous version is announced as file.replaced, with the File as restored and the version restored', async () => {
    const dana = await server.user()
    const hook = await addHook(dana, receiver.url('/restores'), ['file.replaced'])
    const uploaded = await uploadPdf(server, dana, makePdf({ text: () => 'version one' }))
    const put = await server.call('PUT', `/api/files/${uploaded.id}`, {
      token: dana.token,
      body: form({ bytes: makePdf({ text: () => 'version two' }) }),
    })
    expect(put.status).toBe(200)
    const versions = (await json(await server.call('GET', `/api/files/${uploaded.id}/versions`, { token: dana.token }))).data
    const first = versions.find((version: { current: boolean }) => !version.current)
    const restore = await server.call('POST', `/api/files/${uploaded.id}/versions/${first.id}/restore`, { token: dana.token })
    expect(restore.status).toBe(200)
    const restored: FileDto = (await json(restore)).data
    expect(restored.sha256).toBe(uploaded.sha256)
    await eventually(() => expect(receiver.at('/restores')).toHaveLength(2))
    const bodies = receiver
      .at('/restores')
      .map((request) => verify(hook.secret, request) as Delivered & { data: { restoredVersionId?: string } })
    const announced = bodies.find((body) => body.data.restoredVersionId !== undefined)
    expect(announced?.type).toBe('file.replaced')
    expect(announced?.data).toEqual({ file: restored, restoredVersionId: first.id })
    // Restoring the version that is already current changes nothing and announces nothing.
    const current = (await json(await server.call('GET', `/api/files/${uploaded.id}/versions`, { token: dana.token }))).data[0]
    expect((await server.call('POST', `/api/files/${uploaded.id}/versions/${current.id}/restore`, { token: dana.token })).status).toBe(200)
    await Bun.sleep(300)
    expect(receiver.at('/restores')).toHaveLength(2)
  })

  test('a 500 is retried after the backoff and then delivered: attempts 2, the same webhook-id, the log tells each step', async () => {
    const bob = await server.user()
    receiver.respondWith((request) =>
      request.path === '/flaky' && receiver.at('/flaky').length === 1 ? new Response('boom\n  today', { status: 500 }) : new Response('ok'),
    )
    const hook = await addHook(bob, receiver.url('/flaky'), ['file.uploaded'])
    await uploadPdf(server, bob)
    await eventually(async () => expect((await log(bob, hook.id))[0]?.lastStatus).toBe(500))
    const [failed] = await log(bob, hook.id)
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500: boom today', deliveredAt: null })
    const wait = Date.parse(failed!.nextAttemptAt!) - (Date.now() + main.clock.offset)
    expect(wait).toBeGreaterThan(8_000) // 10 s after the failed attempt
    expect(wait).toBeLessThanOrEqual(10_000)
    await Bun.sleep(300)
    expect(receiver.at('/flaky')).toHaveLength(1) // not before its time
    skipRetryDelay(main)
    await eventually(async () => expect((await log(bob, hook.id))[0]?.status).toBe('delivered'))
    const [done] = await log(bob, hook.id)
    expect(done).toMatchObject({ attempts: 2, lastStatus: 200, lastError: null, nextAttemptAt: null })
    expect(Date.parse(done!.deliveredAt!)).toBeGreaterThan(Date.parse(done!.createdAt))
    const [first, second] = receiver.at('/flaky')
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']!)
    expect(verify(hook.secret, second!).type).toBe('file.uploaded')
    receiver.respondWith(() => new Response(null, { status: 204 }))
  })

  test('a receiver that does not answer within the time limit: the attempt fails with a clear error and is retried', async () => {
    const bob = await server.user()
    receiver.respondWith(async (request) => {
      if (request.path === '/sleepy' && receiver.at('/sleepy').length === 1) await Bun.sleep(6_000)
      return new Response(null, { status: 204 })
    })
    const hook = await addHook(bob, receiver.url('/sleepy'), ['file.uploaded'])
    await uploadPdf(server, bob)
    await eventually(async () => expect((await log(bob, hook.id))[0]?.lastError).toBe('no answer within 3 s'))
    expect((await log(bob, hook.id))[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null })
    skipRetryDelay(main)
    await eventually(async () => expect((await log(bob, hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 204 }))
    receiver.respondWith(() => new Response(null, { status: 204 }))
  })

  test('a redirect is not followed: the 302 is a failed attempt, the Location is never requested', async () => {
    const bob = await server.user()
    receiver.respondWith((request) =>
      request.path === '/moved'
        ? new Response(null, { status: 302, headers: { location: receiver.url('/elsewhere') } })
        : new Response(null),
    )
    const hook = await addHook(bob, receiver.url('/moved'), ['file.uploaded'])
    await uploadPdf(server, bob)
    await eventually(async () => expect((await log(bob, hook.id))[0]?.lastStatus).toBe(302))
    expect((await log(bob, hook.id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: `HTTP 302: redirects are not followed (to ${receiver.url('/elsewhere')})`,
    })
    await Bun.sleep(200)
    expect(receiver.at('/elsewhere')).toEqual([])
    receiver.respondWith(() => new Response(null, { status: 204 }))
  })

  test('no delivery for a change that did not commit: uploads refused by the quota inside the committing statement, a replacement refused early', async () => {
    const bob = await server.user()
    const hook = await addHook(bob, receiver.url('/quota'), ['file.uploaded', 'file.replaced'])
    const kept = await uploadPdf(server, bob)
    await setQuota(server.ctx, { name: bob.name, maxFiles: 2, maxBytes: 10 * kept.fileSize })
    // Four at once all pass the early check (one file of two); the INSERT's own condition lets one in.
    const answers = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        server.call('POST', '/api/files/upload', { token: bob.token, body: form({ bytes: makePdf({ text: () => `race ${i}` }) }) }),
      ),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 403, 403, 403])
    const winner: FileDto = (await json(answers.find((answer) => answer.status === 201)!)).data
    const tooBig = await server.call('PUT', `/api/files/${kept.id}`, { token: bob.token, body: form({ bytes: makePdf({ pages: 40 }) }) })
    expect(tooBig.status).toBe(403)
    await eventually(() => expect(receiver.at('/quota')).toHaveLength(2))
    await Bun.sleep(300)
    await main.dispatcher.idle()
    expect(receiver.at('/quota').map((request) => verify(hook.secret, request).data.file?.id)).toEqual([kept.id, winner.id])
    expect((await log(bob, hook.id)).map((entry) => entry.event)).toEqual(['file.uploaded', 'file.uploaded'])
  })

  test('a replacement that lost its compare-and-swap sends nothing for the lost attempt: one event per committed replacement', async () => {
    const bob = await server.user()
    const hook = await addHook(bob, receiver.url('/race'), ['file.replaced'])
    const file = await uploadPdf(server, bob)
    const replace = (text: string) =>
      server.call('PUT', `/api/files/${file.id}`, { token: bob.token, body: form({ bytes: makePdf({ text: () => text }) }) })
    // Fault injection at the database boundary: just before A's switching batch runs, B replaces the file and
    // commits, so A's swap finds another blob key, writes nothing, and A tries again from the new state.
    const db = server.ctx.db.orm
    const batch = db.batch.bind(db)
    let interleaved: Response | undefined
    db.batch = (async (statements: Parameters<typeof db.batch>[0]) => {
      if (!interleaved) {
        interleaved = new Response() // only once: B's own batch and A's retry pass straight through
        interleaved = await replace('B')
      }
      return batch(statements)
    }) as unknown as typeof db.batch
    let a: Response
    try {
      a = await replace('A')
    } finally {
      db.batch = batch
    }
    expect(interleaved!.status).toBe(200)
    expect(a.status).toBe(200)
    const b: FileDto = (await json(interleaved!)).data
    const final: FileDto = (await json(a)).data
    await eventually(() => expect(receiver.at('/race')).toHaveLength(2))
    await Bun.sleep(300)
    await main.dispatcher.idle()
    const announced = receiver.at('/race').map((request) => verify(hook.secret, request).data.file)
    expect(announced).toEqual([b, final])
    const versions = await json(await server.call('GET', `/api/files/${file.id}/versions`, { token: bob.token }))
    expect(versions.data.map((version: { sha256: string }) => version.sha256)).toEqual([final.sha256, b.sha256, file.sha256])
  })

  test('"send test event": 202 with its pending delivery; it arrives as webhook.test, signed, whatever events the webhook asked for', async () => {
    const bob = await server.user()
    const hook = await addHook(bob, receiver.url('/test-event'), ['file.deleted'])
    const response = await server.call('POST', `/api/webhooks/${hook.id}/test`, { token: bob.token })
    expect(response.status).toBe(202)
    const { data } = await json(response)
    expect(data).toMatchObject({
      event: 'webhook.test',
      status: 'pending',
      attempts: 0,
      lastStatus: null,
      lastError: null,
      deliveredAt: null,
    })
    expect(data.id).toMatch(/^msg_/)
    await eventually(() => expect(receiver.at('/test-event')).toHaveLength(1))
    const body = verify(hook.secret, receiver.at('/test-event')[0]!)
    expect(body).toMatchObject({ type: 'webhook.test', data: { webhook: { id: hook.id } } })
    expect(receiver.at('/test-event')[0]!.headers['webhook-id']).toBe(data.id)
  })

  test('the delivery log pages newest first with a cursor, and shows every field', async () => {
    const bob = await server.user()
    const hook = await addHook(bob, receiver.url('/paged'), ['file.deleted'])
    for (let i = 0; i < 3; i++) await server.call('POST', `/api/webhooks/${hook.id}/test`, { token: bob.token })
    await eventually(async () => expect((await log(bob, hook.id)).every((entry) => entry.status === 'delivered')).toBe(true))
    const first = await json(await server.call('GET', `/api/webhooks/${hook.id}/deliveries?limit=2`, { token: bob.token }))
    expect(first.data).toHaveLength(2)
    expect(Object.keys(first.data[0]).sort()).toEqual(
      ['attempts', 'createdAt', 'deliveredAt', 'event', 'id', 'lastError', 'lastStatus', 'nextAttemptAt', 'status'].sort(),
    )
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await json(
      await server.call('GET', `/api/webhooks/${hook.id}/deliveries?limit=2&cursor=${first.nextCursor}`, { token: bob.token }),
    )
    expect(second.data).toHaveLength(1)
    expect(second.nextCursor).toBeNull()
    const all = await log(bob, hook.id)
    expect([...first.data, ...second.data].map((entry: DeliveryDto) => entry.id)).toEqual(all.map((entry) => entry.id))
    expect(Date.parse(all[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(all[2]!.createdAt))
  })

  test('deleting a webhook drops its pending deliveries: nothing more is sent to it', async () => {
    const bob = await server.user()
    receiver.respondWith((request) => new Response(null, { status: request.path === '/dropped' ? 503 : 204 }))
    const hook = await addHook(bob, receiver.url('/dropped'), ['file.uploaded'])
    await uploadPdf(server, bob)
    await eventually(() => expect(receiver.at('/dropped')).toHaveLength(1))
    await main.dispatcher.idle()
    expect((await log(bob, hook.id))[0]).toMatchObject({ status: 'pending', lastStatus: 503 })
    expect((await server.call('DELETE', `/api/webhooks/${hook.id}`, { token: bob.token })).status).toBe(200)
    const { webhookDeliveries } = server.ctx.db.tables
    expect(await server.ctx.db.orm.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id))).toEqual([])
    skipRetryDelay(main)
    await Bun.sleep(300)
    await main.dispatcher.idle()
    expect(receiver.at('/dropped')).toHaveLength(1)
    receiver.respondWith(() => new Response(null, { status: 204 }))
  })
})

describe('timing', () => {
  test('an idle dispatcher only reads: its polls leave the database version, and so every cache, as they were', async () => {
    const idle = await startTestApp()
    const dispatcher = startWebhookDispatcher(idle.ctx, { pollMs: 20 })
    try {
      await dispatcher.idle()
      const before = await idle.ctx.db.hot.dataVersion()
      await Bun.sleep(200) // about ten polls
      await dispatcher.idle()
      expect(await idle.ctx.db.hot.dataVersion()).toBe(before!)
    } finally {
      await dispatcher.stop()
    }
  })

  test('a slow receiver does not slow an upload: the upload is answered while the delivery still waits, the event arrives later', async () => {
    const app = await webhookApp(undefined, 60_000)
    const bob = await app.server.user()
    // The receiver answers only when the test lets it: whatever the machine's speed, an upload that waited for
    // a delivery would not be answered before then.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const slow = startReceiver(async () => {
      await held
      return new Response(null, { status: 204 })
    })
    const hook = await addHook(bob, slow.url(), ['file.uploaded'], app.server)
    await uploadPdf(app.server, bob)
    await eventually(() => expect(slow.received).toHaveLength(1))
    await uploadPdf(app.server, bob)
    // One delivery of a webhook at a time: the second is sent once the first has its answer.
    expect(slow.received).toHaveLength(1)
    release()
    await eventually(() => expect(slow.received).toHaveLength(2))
    await eventually(async () =>
      expect((await log(bob, hook.id, app.server)).map((entry) => entry.status)).toEqual(['delivered', 'delivered']),
    )
  })

  test('one user’s slow receiver and test events hold one slot: another user’s delivery goes meanwhile', async () => {
    const app = await webhookApp(undefined, 60_000)
    const [alice, bob] = [await app.server.user(), await app.server.user()]
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const slow = startReceiver(async () => {
      await held
      return new Response(null, { status: 204 })
    })
    const aliceHook = await addHook(alice, slow.url('/alice'), ['file.uploaded'], app.server)
    for (let i = 0; i < 8; i++) {
      expect((await app.server.call('POST', `/api/webhooks/${aliceHook.id}/test`, { token: alice.token })).status).toBe(202)
    }
    await eventually(() => expect(slow.at('/alice')).toHaveLength(1))
    const quick = startReceiver()
    await addHook(bob, quick.url('/bob'), ['file.uploaded'], app.server)
    await uploadPdf(app.server, bob)
    // Four global slots, first in first out, would have kept this behind alice's queue, which does not move
    // until her receiver answers.
    await eventually(() => expect(quick.at('/bob')).toHaveLength(1))
    expect(slow.at('/alice')).toHaveLength(1) // her webhook got one slot, not four
    release()
    await eventually(() => expect(slow.at('/alice')).toHaveLength(8))
  })

  test('link.viewed and link.downloaded wake the dispatcher: sent at once, not at its next poll', async () => {
    const server = await startTestApp({ PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' })
    const dispatcher = startWebhookDispatcher(server.ctx, { pollMs: 600_000 })
    afterAll(() => dispatcher.stop())
    const dave = await server.user()
    const readers = startReceiver()
    await addHook(dave, readers.url('/readers'), ['link.viewed', 'link.downloaded'], server)
    const file = await uploadPdf(server, dave)
    const path = sharePathOf(file)
    const chrome = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36' }
    await Bun.sleep(50) // the poll at start is over
    expect((await server.call('GET', path, { headers: chrome })).status).toBe(200)
    // Each arrives within eventually's minute, long before the dispatcher's next poll (10 minutes after its start):
    // only the event waking it sends it.
    await eventually(() => expect(readers.at('/readers')).toHaveLength(1))
    expect((await server.call('GET', `${path}/download`, { headers: { ...chrome, 'x-forwarded-for': '192.0.2.1' } })).status).toBe(200)
    await eventually(() => expect(readers.at('/readers')).toHaveLength(2))
    expect(readers.at('/readers').map((request) => JSON.parse(request.body).type)).toEqual(['link.viewed', 'link.downloaded'])
  })

  test('"send test event" at most 10 a minute per user, then 429 with Retry-After', async () => {
    const app = await webhookApp()
    const carol = await app.server.user()
    const hook = await addHook(carol, receiver.url('/limited'), ['file.uploaded'], app.server)
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < 11; i++) {
      last = await app.server.call('POST', `/api/webhooks/${hook.id}/test`, { token: carol.token })
      statuses.push(last.status)
    }
    expect(statuses).toEqual([...Array(10).fill(202), 429])
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await json(last!)).code).toBe('rate_limited')
  })

  test('retried with backoff for 24 h after the event, then failed (the clock is the app’s)', async () => {
    const server = await startTestApp({ PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' })
    const start = Date.now()
    let clock = start
    server.ctx.now = () => clock
    const dispatcher = startWebhookDispatcher(server.ctx, { timeoutMs: 2_000, pollMs: 60_000 })
    afterAll(() => dispatcher.stop())
    const bob = await server.user('backoff', { ttlSeconds: null })
    const failing = startReceiver(() => new Response('down', { status: 500 }))
    const hook = await addHook(bob, failing.url(), ['file.uploaded'], server)
    await uploadPdf(server, bob)
    const attemptsAt: number[] = []
    for (let round = 0; round < 20; round++) {
      dispatcher.nudge()
      await eventually(async () => {
        await dispatcher.idle()
        expect(failing.received).toHaveLength(round + 1)
      })
      await dispatcher.idle()
      attemptsAt.push(clock - start)
      const [entry] = await log(bob, hook.id, server)
      if (entry!.status !== 'pending') break
      clock = Date.parse(entry!.nextAttemptAt!)
    }
    const [entry] = await log(bob, hook.id, server)
    expect(entry).toMatchObject({ status: 'failed', attempts: 9, lastStatus: 500, lastError: 'HTTP 500: down', nextAttemptAt: null })
    const s = 1000
    const m = 60 * s
    const h = 60 * m
    const steps = [0, 10 * s, m, 5 * m, 30 * m, 2 * h, 6 * h, 12 * h]
    const expected = steps.map((_, i) => steps.slice(0, i + 1).reduce((a, b) => a + b, 0))
    expect(attemptsAt).toEqual([...expected, 24 * h])
    clock += 48 * h
    dispatcher.nudge()
    await Bun.sleep(200)
    await dispatcher.idle()
    expect(failing.received).toHaveLength(9) // failed is final
  }, 60_000)
})

describe('private targets without PDFSHARE_WEBHOOK_ALLOW_PRIVATE', () => {
  test('a literal loopback, private or link-local address is refused on create (400)', async () => {
    const strict = await webhookApp({})
    const bob = await strict.server.user()
    for (const [url, words] of [
      [receiver.url('/x'), 'a loopback address (127.0.0.1)'],
      ['http://[::1]:8080/x', 'a loopback address (::1)'],
      ['http://10.1.2.3/x', 'a private address (10.1.2.3)'],
      ['https://192.168.1.20/ntfy', 'a private address (192.168.1.20)'],
      ['http://169.254.169.254/latest/meta-data', 'a link-local address (169.254.169.254)'],
      ['http://[fd00::1]/x', 'a private address (fd00::1)'],
      ['http://[::ffff:127.0.0.1]/x', 'a loopback address (::ffff:7f00:1)'],
      ['http://2130706433/x', 'a loopback address (127.0.0.1)'],
      ['http://100.64.0.1/x', 'a shared (CGNAT) address (100.64.0.1)'],
      ['http://0.0.0.0/x', 'an unspecified address (0.0.0.0)'],
    ]) {
      const response = await post(bob, '/api/webhooks', { url, events: ['file.uploaded'] }, strict.server)
      expect(response.status, url).toBe(400)
      expect((await json(response)).error, url).toBe(
        `url must not point at ${words}; set PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1 to allow loopback, private and link-local targets`,
      )
    }
    expect((await post(bob, '/api/webhooks', { url: 'https://93.184.215.14/x', events: ['file.uploaded'] }, strict.server)).status).toBe(
      201,
    )
  })

  test('a name that resolves to a loopback address (localhost) is accepted on create, but each attempt fails with a clear lastError', async () => {
    const strict = await webhookApp({})
    const bob = await strict.server.user()
    const hook = await addHook(bob, `http://localhost:${receiver.port}/named`, ['file.uploaded'], strict.server)
    await uploadPdf(strict.server, bob)
    await eventually(async () => expect((await log(bob, hook.id, strict.server))[0]?.attempts).toBe(1))
    await strict.dispatcher.idle()
    const [entry] = await log(bob, hook.id, strict.server)
    expect(entry).toMatchObject({ status: 'pending', lastStatus: null })
    // The owner learns that the name is not public, not what it resolves to here; the server's log says that.
    expect(entry!.lastError).toBe(
      'refused: localhost resolves to a non-public address; set PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1 to allow loopback, private and link-local targets',
    )
    expect(strict.server.log.lines.join('\n')).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/)
    expect(receiver.at('/named')).toEqual([])
  })
})
