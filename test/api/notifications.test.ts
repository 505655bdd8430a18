import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { createApp } from '../../src/app'
import { CHANNEL_KINDS } from '../../src/core/notifications/channels'
import { startNotifier } from '../../src/core/notifications/notifier'
import { NOTICES_PER_LINK_HOUR } from '../../src/core/notifications/route-events'
import { makePdf } from '../../scripts/support/pdf'
import { eventually } from '../support/eventually'
import { BASE, json, startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { startSmtpServer } from '../support/smtp'
import { uploadPdf } from '../support/uploads'
import { browserNumber } from '../support/user-agents'

// Owners told of their readers (docs/readers.md, Notifications): the channels API, and the notifier on a pinned
// clock delivering to a real SMTP server and to one HTTP receiver on loopback standing in for ntfy, Gotify, Slack,
// Discord and Matrix (PDFSHARE_WEBHOOK_ALLOW_PRIVATE lets it reach loopback).
type Received = { method: string; path: string; query: string; headers: Record<string, string>; body: string }
const received: Received[] = []
/** Answers 500 to the next `failing` requests to /flaky, then 200. */
let failing = 0
const receiver = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const url = new URL(request.url)
    received.push({
      method: request.method,
      path: url.pathname,
      query: url.search,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    })
    if (url.pathname.startsWith('/flaky') && failing > 0) {
      failing--
      return new Response('try later', { status: 500 })
    }
    return new Response('{}', { headers: { 'content-type': 'application/json' } })
  },
})
afterAll(() => receiver.stop(true))
const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const server = await startTestApp({
  PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1',
  PDFSHARE_TRUST_PROXY: '1',
  PDFSHARE_RATE_LIMIT_SHARE: '0',
})
const HOUR = 3_600_000
let now = Date.UTC(2026, 10, 25, 9, 5, 0)
const clocked = { ...server.ctx, now: () => now }
const app = createApp(clocked)
const notifier = startNotifier(clocked, { pollMs: 3_600_000 })
afterAll(() => notifier.stop())
const at = `http://127.0.0.1:${receiver.port}`

/** The API on the pinned clock too, so a test message is due when the notifier looks. */
const call = (method: string, path: string, token: string, body?: unknown) =>
  app.handle(
    new Request(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    }),
  )
let readers = 0
/** A new reader (their own address and browser) opens `path` on the pinned clock; answers the response. */
const read = (path: string, headers: Record<string, string> = {}) =>
  app.handle(
    new Request(`${BASE}${path}`, {
      headers: { 'user-agent': browserNumber(++readers), 'x-forwarded-for': `198.51.${readers >> 8}.${readers & 255}`, ...headers },
    }),
  )
/** Routes and sends what is due now, and waits until it is done. */
async function deliver() {
  notifier.nudge()
  await notifier.idle()
}
const deliveries = async (token: string) => (await json(await call('GET', '/api/notifications/deliveries?limit=200', token))).data
const to = (prefix: string) => received.filter((request) => request.path.startsWith(prefix))

/** An owner with one file and one channel of each kind, each at its own path of the receiver. */
async function ownerWithChannels(name: string, options: { paths?: string } = {}) {
  const owner = await server.user(name)
  const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1 }), name: `${name}.pdf` }, { title: `Deck of ${name}` })
  const base = `${at}/${options.paths ?? name}`
  const targets = {
    email: `${name}@example.test`,
    ntfy: `${base}-ntfy`,
    gotify: `${base}-gotify/message?token=app-token`,
    slack: `${base}-slack/services/T1/B1/x`,
    discord: `${base}-discord/api/webhooks/1/abc`,
    matrix: `${base}-matrix/_matrix/client/v3/rooms/!room:example.test/send/m.room.message?access_token=secret-token`,
  }
  for (const [kind, target] of Object.entries(targets))
    expect((await call('POST', '/api/notifications/channels', owner.token, { kind, target })).status).toBe(201)
  return { owner, file, base: `/${options.paths ?? name}` }
}

describe('notification channels', () => {
  test('each kind with its target checked; answers show no secret of a URL; at most 20; a test message', async () => {
    const owner = await server.user('channel-owner')
    const bad: [unknown, string][] = [
      [{ kind: 'email', target: 'not an address' }, 'target must be an email address'],
      [{ kind: 'gotify', target: `${at}/message` }, 'a Gotify target needs its application token'],
      [{ kind: 'matrix', target: `${at}/rooms/x` }, "a Matrix target is the room's send URL with an access token"],
      [{ kind: 'ntfy', target: `${at}/a/b` }, "an ntfy target is the topic's URL"],
      [{ kind: 'slack', target: 'ftp://example.test/x' }, 'target must be an https:// or http:// URL'],
      [{ kind: 'pager', target: 'x' }, 'kind must be one of email, ntfy, gotify, slack, discord, matrix'],
    ]
    for (const [body, message] of bad) {
      const refused = await call('POST', '/api/notifications/channels', owner.token, body)
      expect(refused.status).toBe(400)
      expect((await json(refused)).error).toContain(message)
    }
    const added = await json(
      await call('POST', '/api/notifications/channels', owner.token, { kind: 'slack', target: `${at}/services/T000/B000/very-secret` }),
    )
    expect(added.data.target).toBe(`${at}/services/T0…`)
    expect(JSON.stringify(await json(await call('GET', '/api/notifications/channels', owner.token)))).not.toContain('very-secret')
    // The audit log keeps the kind and the host.
    const audit = (await json(await call('GET', '/api/audit?action=notification_channel.created', owner.token))).data
    expect(audit[0].detail).toEqual({ channelId: added.data.id, kind: 'slack', target: `127.0.0.1:${receiver.port}` })

    const tested = await call('POST', `/api/notifications/channels/${added.data.id}/test`, owner.token)
    expect(tested.status).toBe(202)
    await deliver()
    expect(to('/services/T000').map((request) => JSON.parse(request.body).text)).toEqual([
      '*pdfshare test notification*\nThis channel works: pdfshare will tell you here when someone reads your documents.\nhttps://pdf.example.test/base/app#/notifications',
    ])
    expect((await deliveries(owner.token))[0]).toMatchObject({ kind: 'slack', status: 'delivered', attempts: 1, lastStatus: 200 })

    for (let i = 1; i < 20; i++)
      await call('POST', '/api/notifications/channels', owner.token, { kind: 'email', target: `o${i}@example.test` })
    const over = await call('POST', '/api/notifications/channels', owner.token, { kind: 'email', target: 'one-more@example.test' })
    expect((await json(over)).error).toBe('A user may have at most 20 notification channels; delete one first')
    expect((await call('DELETE', `/api/notifications/channels/${added.data.id}`, owner.token)).status).toBe(200)
    expect((await call('DELETE', `/api/notifications/channels/${added.data.id}`, owner.token)).status).toBe(404)
    const stranger = await server.user('channel-stranger')
    const [theirs] = (await json(await call('GET', '/api/notifications/channels', owner.token))).data
    expect((await call('DELETE', `/api/notifications/channels/${theirs.id}`, stranger.token)).status).toBe(404)
    expect((await call('POST', `/api/notifications/channels/${theirs.id}/test`, stranger.token)).status).toBe(404)
  })

  test('the API document names the six kinds, and a private address is refused unless allowed', async () => {
    const doc = await json(await server.call('GET', '/api/openapi.json'))
    expect(doc.paths['/api/notifications/channels'].post.requestBody.content['application/json'].schema.properties.kind.enum).toEqual([
      ...CHANNEL_KINDS,
    ])
    const strict = createApp({ ...server.ctx, config: { ...server.ctx.config, webhookAllowPrivate: false } })
    const owner = await server.user('strict-owner')
    const refused = await strict.handle(
      new Request(`${BASE}/api/notifications/channels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'ntfy', target: 'http://127.0.0.1:8080/alerts' }),
      }),
    )
    expect(refused.status).toBe(400)
    expect((await json(refused)).error).toContain('loopback')
  })
})

describe('what owners are told', () => {
  test('a new reader, in the format of each channel; a repeat visit is no news, another reader is', async () => {
    const { owner, file, base } = await ownerWithChannels('told')
    const link = await addLink(server, file.id, { label: 'Board <b>' })
    const first = await read(link.path)
    expect(first.status).toBe(200)
    await deliver()
    const ntfy = to(`${base}-ntfy`)
    expect(ntfy).toHaveLength(0) // ntfy is published to the server's root, with the topic in the body
    const [published] = received.filter((request) => request.path === '/' && JSON.parse(request.body).topic === 'told-ntfy')
    expect(JSON.parse(published!.body)).toEqual({
      topic: 'told-ntfy',
      title: 'New reader: Deck of told',
      message: 'Someone opened it through the link "Board <b>" at 09:05 UTC.',
      click: `https://pdf.example.test/base/app#/files/${file.id}`,
      tags: ['page_facing_up'],
    })
    const [gotify] = to(`${base}-gotify`)
    expect(gotify!.query).toBe('?token=app-token')
    expect(JSON.parse(gotify!.body)).toMatchObject({ title: 'New reader: Deck of told', priority: 5 })
    const [slack] = to(`${base}-slack`)
    expect(JSON.parse(slack!.body).text).toContain('through the link "Board &lt;b&gt;"')
    const [discord] = to(`${base}-discord`)
    expect(JSON.parse(discord!.body)).toMatchObject({ allowed_mentions: { parse: [] } })
    expect(JSON.parse(discord!.body).content).toStartWith('**New reader: Deck of told**\n')
    const [matrix] = to(`${base}-matrix`)
    expect(matrix!.method).toBe('PUT')
    expect(matrix!.path).toMatch(/\/send\/m\.room\.message\/[A-Za-z0-9_-]{22}$/)
    expect(matrix!.query).toBe('?access_token=secret-token')
    expect(JSON.parse(matrix!.body)).toMatchObject({ msgtype: 'm.text' })
    const mail = await smtp.next('told@example.test')
    expect(mail.data).toContain('Subject: New reader: Deck of told')

    // The same reader again within the repeat window: not counted, no news. A second reader: news.
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    await read(link.path, { cookie })
    await deliver()
    expect(to(`${base}-slack`)).toHaveLength(1)
    await read(link.path)
    await deliver()
    expect(to(`${base}-slack`)).toHaveLength(2)
    const log = await deliveries(owner.token)
    expect(log).toHaveLength(12)
    expect(log.every((delivery: { status: string }) => delivery.status === 'delivered')).toBe(true)
  })

  test('a download and an accepted agreement, with the address the reader gave', async () => {
    const { file, base } = await ownerWithChannels('gated')
    const link = await addLink(server, file.id, { access: 'email', agreement: 'Keep it to yourself.' })
    const form = (path: string, fields: Record<string, string>, cookie = '') =>
      app.handle(
        new Request(`${BASE}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'user-agent': browserNumber('gated'),
            'x-forwarded-for': '198.51.100.77',
            cookie,
          },
          body: new URLSearchParams(fields).toString(),
        }),
      )
    const cookies: string[] = []
    const keep = (response: Response) => cookies.push(...response.headers.getSetCookie().map((line) => line.split(';')[0]!))
    keep(await form(`${link.path}/reader`, { email: 'ann@example.test' }))
    keep(await form(`${link.path}/agreement`, { version: '1', accept: 'yes' }, cookies.join('; ')))
    const headers = { cookie: cookies.join('; '), 'user-agent': browserNumber('gated'), 'x-forwarded-for': '198.51.100.77' }
    keep(await app.handle(new Request(`${BASE}${link.path}`, { headers })))
    const download = await app.handle(new Request(`${BASE}${link.path}/download`, { headers: { ...headers, cookie: cookies.join('; ') } }))
    expect(download.status).toBe(200)
    await download.arrayBuffer()
    await deliver()
    const texts = to(`${base}-slack`).map((request) => JSON.parse(request.body).text.split('\n').slice(0, 2).join(' | '))
    // Sent four at a time: they may arrive in any order.
    expect(texts.sort()).toEqual([
      '*Agreement accepted: Deck of gated* | ann@example.test accepted its agreement through a share link at 09:05 UTC.',
      '*Downloaded: Deck of gated* | ann@example.test downloaded it through a share link at 09:05 UTC.',
      '*New reader: Deck of gated* | ann@example.test opened it through a share link at 09:05 UTC.',
    ])
  })

  test(`at most ${NOTICES_PER_LINK_HOUR} a link and hour at once; the rest in one digest when the hour is over`, async () => {
    const { file, base } = await ownerWithChannels('viral')
    const link = await addLink(server, file.id, { label: 'Everyone' })
    for (let i = 0; i < NOTICES_PER_LINK_HOUR + 3; i++) expect((await read(link.path)).status).toBe(200)
    await deliver()
    expect(to(`${base}-slack`)).toHaveLength(NOTICES_PER_LINK_HOUR)
    now += HOUR
    await deliver()
    const slack = to(`${base}-slack`)
    expect(slack).toHaveLength(NOTICES_PER_LINK_HOUR + 1)
    // The period's ends through Intl in the owners' language (English here), in UTC and saying so.
    const hourOf = (ms: number) =>
      new Intl.DateTimeFormat('en', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: 'UTC',
        timeZoneName: 'short',
      }).format(ms - (ms % HOUR))
    expect(JSON.parse(slack.at(-1)!.body).text.split('\n').slice(0, 2)).toEqual([
      '*Deck of viral: 3 new readers*',
      `Through the link "Everyone", from ${hourOf(now - HOUR)} to ${hourOf(now)}.`,
    ])
  })

  test('hourly and daily digests wait for their hour or day; off tells nothing', async () => {
    const { file, base } = await ownerWithChannels('digests')
    const hourly = await addLink(server, file.id, { label: 'Hourly', notify: 'hourly' })
    const daily = await addLink(server, file.id, { label: 'Daily', notify: 'daily' })
    const off = await addLink(server, file.id, { label: 'Quiet', notify: 'off' })
    for (const link of [hourly, hourly, daily, off]) await read(link.path)
    await deliver()
    expect(to(`${base}-slack`)).toHaveLength(0)
    now += HOUR
    await deliver()
    expect(to(`${base}-slack`).map((request) => JSON.parse(request.body).text.split('\n')[0])).toEqual(['*Deck of digests: 2 new readers*'])
    now += 24 * HOUR
    await deliver()
    expect(to(`${base}-slack`).map((request) => JSON.parse(request.body).text.split('\n')[0])).toEqual([
      '*Deck of digests: 2 new readers*',
      '*Deck of digests: 1 new reader*',
    ])
  })

  test('files received through a request: told at once by the request’s notify; an hourly request’s digest counts its files', async () => {
    const { owner, base } = await ownerWithChannels('requests-told')
    const newRequest = async (body: Record<string, unknown>) => {
      const request = (await json(await call('POST', '/api/requests', owner.token, { title: 'Statements', ...body }))).data
      return (request.url as string).split('/u/')[1]!
    }
    const send = async (slug: string, name: string, fields: Record<string, string> = {}) => {
      const body = new FormData()
      body.append('file', new File([makePdf()], name, { type: 'application/pdf' }))
      for (const [field, value] of Object.entries(fields)) body.append(field, value)
      const response = await app.handle(new Request(`${BASE}/u/${slug}/files`, { method: 'POST', body }))
      expect(response.status).toBe(201)
    }
    const slackLines = () => to(`${base}-slack`).map((request) => JSON.parse(request.body).text.split('\n')[0])

    const atOnce = await newRequest({})
    await send(atOnce, 'March.pdf', { email: 'ada@example.com' })
    await deliver()
    expect(slackLines()).toEqual(['*File received: March.pdf*'])
    expect(JSON.parse(to(`${base}-slack`)[0]!.body).text).toContain('ada@example.com sent it through your request "Statements"')

    const hourly = await newRequest({ notify: 'hourly', title: 'Essays' })
    await send(hourly, 'a.pdf', { name: 'Ada' })
    await send(hourly, 'b.pdf', { name: 'Grace' })
    await deliver()
    expect(slackLines()).toHaveLength(1)
    now += HOUR
    await deliver()
    expect(slackLines()).toEqual(['*File received: March.pdf*', '*Essays: 2 files received*'])
    expect(JSON.parse(to(`${base}-slack`)[1]!.body).text).toContain('Senders: Ada, Grace.')

    const off = await newRequest({ notify: 'off' })
    await send(off, 'quiet.pdf')
    now += HOUR
    await deliver()
    expect(slackLines()).toHaveLength(2)
  })

  test('a receiver that fails is retried with the backoff, and the log says what it answered', async () => {
    const { owner, file } = await ownerWithChannels('retried', { paths: 'flaky' })
    failing = 100
    const link = await addLink(server, file.id)
    await read(link.path)
    await deliver()
    const flaky = (await deliveries(owner.token)).find((delivery: { kind: string }) => delivery.kind === 'discord')
    expect(flaky).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500: try later' })
    failing = 0
    now += 11_000 // past the first retry's 10 s
    await deliver()
    const later = (await deliveries(owner.token)).find((delivery: { id: string }) => delivery.id === flaky.id)
    expect(later).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 200, lastError: null })
  })

  test('without a channel, readers make no deliveries; the link field says how to tell', async () => {
    const owner = await server.user('no-channels')
    const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1 }), name: 'quiet.pdf' })
    const link = await addLink(server, file.id)
    await read(link.path)
    await deliver()
    expect(await deliveries(owner.token)).toEqual([])
    const refused = await call('PATCH', `/api/links/${link.id}`, owner.token, { notify: 'weekly' })
    expect((await json(refused)).error).toBe('notify must be one of "on", "hourly", "daily", "off"')
    expect((await json(await call('PATCH', `/api/links/${link.id}`, owner.token, { notify: 'daily' }))).data.notify).toBe('daily')
  })

  test('the log keeps a delivery 30 days, the events behind them 2 days', async () => {
    const { owner, file } = await ownerWithChannels('forgotten')
    const link = await addLink(server, file.id)
    await read(link.path)
    await deliver()
    expect(await deliveries(owner.token)).toHaveLength(6)
    const { readerEvents } = server.ctx.db.tables
    const events = () => server.ctx.db.orm.select().from(readerEvents).where(eq(readerEvents.linkId, link.id))
    expect(await events()).toHaveLength(1)
    now += 3 * 24 * HOUR
    await deliver()
    expect(await events()).toEqual([])
    expect(await deliveries(owner.token)).toHaveLength(6)
    now += 28 * 24 * HOUR
    await deliver()
    expect(await deliveries(owner.token)).toEqual([])
  })
})

describe('fair sending', () => {
  test('one owner flooding a receiver that never answers holds one slot: another owner’s message goes in the same round', async () => {
    // A receiver that accepts and never answers: each attempt to it takes the whole time limit.
    let hung = 0
    const counted = new WeakSet<object>()
    const silent = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        data(socket) {
          // A connection's first bytes are one attempt's request (the connection probe before it sends none).
          if (!counted.has(socket)) hung++
          counted.add(socket)
        },
      },
    })
    afterAll(() => silent.stop(true))
    /** How many of the flood's attempts had reached the silent receiver when the other owner's message arrived. */
    let hungWhenBobArrived: number | undefined
    const bobReceiver = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch() {
        hungWhenBobArrived ??= hung
        return new Response('{}')
      },
    })
    afterAll(() => bobReceiver.stop(true))
    // The default time limit, 10 s: an attempt to the silent receiver ends only when the notifier stops.
    const fair = await startTestApp({ PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' })
    const [alice, bob] = [await fair.user('flooder'), await fair.user('patient')]
    const channel = async (owner: { token: string }, target: string) =>
      (
        await json(
          await fair.callInProcess('POST', '/api/notifications/channels', {
            token: owner.token,
            body: JSON.stringify({ kind: 'slack', target }),
            headers: { 'content-type': 'application/json' },
          }),
        )
      ).data.id
    const aliceChannel = await channel(alice, `http://127.0.0.1:${silent.port}/services/flood`)
    const bobChannel = await channel(bob, `http://127.0.0.1:${bobReceiver.port}/services/bob`)
    // Alice's ten test messages are queued first (the most a minute), then Bob's one: he is last in line.
    for (let i = 0; i < 10; i++)
      expect((await fair.callInProcess('POST', `/api/notifications/channels/${aliceChannel}/test`, { token: alice.token })).status).toBe(
        202,
      )
    expect((await fair.callInProcess('POST', `/api/notifications/channels/${bobChannel}/test`, { token: bob.token })).status).toBe(202)

    const notifier = startNotifier(fair.ctx, { pollMs: 3_600_000 })
    try {
      await eventually(() => expect(hungWhenBobArrived).toBeDefined(), 40_000)
      // Bob's went in the first round, beside Alice's first: it never waited for hers to time out (sent four at a
      // time, oldest first, it waited for two rounds of hers: 8 attempts, 20 s).
      expect(hungWhenBobArrived!).toBeLessThanOrEqual(1)
      // Her channel has one attempt at a time: one of her ten is claimed, the others wait their turn.
      const hers = (await json(await fair.callInProcess('GET', '/api/notifications/deliveries', { token: alice.token }))).data
      expect(hers.map((delivery: { attempts: number }) => delivery.attempts).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    } finally {
      await notifier.stop()
    }
  }, 60_000)

  test('"send a test message" at most 10 a minute per user, then 429 with Retry-After', async () => {
    const owner = await server.user('tester')
    const added = await json(
      await call('POST', '/api/notifications/channels', owner.token, { kind: 'slack', target: `${at}/services/limited` }),
    )
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < 11; i++) {
      last = await call('POST', `/api/notifications/channels/${added.data.id}/test`, owner.token)
      statuses.push(last.status)
    }
    expect(statuses).toEqual([...Array(10).fill(202), 429])
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await json(last!)).code).toBe('rate_limited')
    expect(await deliveries(owner.token)).toHaveLength(10)
    await deliver()
  })
})

describe('targets the notifier cannot send to', () => {
  test('credentials Basic authorization cannot carry are refused when the channel is made', async () => {
    const owner = await server.user('credentials')
    for (const target of [
      'http://%E2%82%AC:pw@127.0.0.1/topic', // € is not ASCII
      'http://user:p%E2%82%ACss@127.0.0.1/topic',
      'http://us%3Aer:pw@127.0.0.1/topic', // a colon ends Basic's user name
      'http://us%0Aer:pw@127.0.0.1/topic', // a control character
      'http://%ZZ:pw@127.0.0.1/topic', // no escape at all
    ]) {
      const refused = await call('POST', '/api/notifications/channels', owner.token, { kind: 'ntfy', target })
      expect(refused.status, target).toBe(400)
      expect((await json(refused)).code, target).toBe('invalid_request')
      expect(
        (await json(await call('POST', '/api/notifications/channels', owner.token, { kind: 'ntfy', target }))).error,
        target,
      ).toContain('user name and password')
    }
    expect(await json(await call('GET', '/api/notifications/channels', owner.token))).toEqual({ success: true, data: [] })
    const fine = await call('POST', '/api/notifications/channels', owner.token, {
      kind: 'ntfy',
      target: `http://ann:s3cret%21@127.0.0.1:${receiver.port}/topic`,
    })
    expect(fine.status).toBe(201)
  })

  test('a channel that makes the send throw is a failed attempt: retried with the backoff, then failed, never claimed forever', async () => {
    const owner = await server.user('thrown')
    // Rows made before the check above (or by hand): one the request cannot carry, one that is no URL at all.
    const { notificationChannels } = server.ctx.db.tables
    const ids = { euro: 'chan_euro_credentials', broken: 'chan_not_a_url' }
    await server.ctx.db.orm.insert(notificationChannels).values([
      { id: ids.euro, ownerId: owner.id, kind: 'ntfy', target: `http://%E2%82%AC:pw@127.0.0.1:${receiver.port}/topic`, createdAt: now },
      { id: ids.broken, ownerId: owner.id, kind: 'slack', target: 'not a url', createdAt: now },
    ])
    for (const id of Object.values(ids))
      expect((await call('POST', `/api/notifications/channels/${id}/test`, owner.token)).status).toBe(202)
    await deliver()
    const first = await deliveries(owner.token)
    expect(first).toHaveLength(2)
    for (const delivery of first) {
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null })
      expect(delivery.lastError).toEqual(expect.any(String))
    }
    now += 25 * HOUR // past the retry window: the next attempt is the last
    await deliver()
    expect(
      (await deliveries(owner.token)).map((delivery: { status: string; attempts: number }) => [delivery.status, delivery.attempts]),
    ).toEqual([
      ['failed', 2],
      ['failed', 2],
    ])
  })
})
