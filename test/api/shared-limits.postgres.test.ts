import { describe, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { createApp } from '../../src/app'
import { setPassword } from '../../src/core/accounts/users/users'
import { BASE, form, startTestApp, type TestServer } from '../support/harness'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// Two instances of one install (one PostgreSQL database, one bucket), as behind a load balancer: every limit
// counts a client's requests wherever they land. Run by the test command's PostgreSQL + S3 pass only
// (*.postgres.test.ts): the embedded server is one process, its limits are in memory by design.
const settings = {
  PDFSHARE_RATE_LIMIT_API: '6',
  PDFSHARE_RATE_LIMIT_LOGIN: '3',
  PDFSHARE_TRUST_PROXY: '1',
  PDFSHARE_MAX_UPLOADS_PER_USER: '1',
}
const a = await startTestApp(settings)
const b = await startTestApp(settings, { sameInstallAs: a })
const instances = [a, b]
const owner = await a.user('owner')
/**
 * Both instances on one pinned clock, for the limits counted in fixed minutes: a handful of tries that straddled
 * the turn of a minute would start counting afresh.
 */
const onPinnedClock = () => {
  const now = Date.now()
  const pinned = new Map(instances.map((server) => [server, createApp({ ...server.ctx, now: () => now })]))
  return (server: TestServer, path: string, init: RequestInit) => pinned.get(server)!.handle(new Request(`${BASE}${path}`, init))
}

describe('limits shared by the instances', () => {
  test('the API budget of a user is one budget across instances, also for concurrent requests', async () => {
    const user = await a.user()
    // 12 requests at once, spread over both instances: exactly the 6 of the minute's budget pass.
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % 2]!.call('GET', '/api/me', { token: user.token })))
    const statuses = answers.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(6)
    expect(statuses.filter((status) => status === 429)).toHaveLength(6)
    const remaining = answers.filter((r) => r.status === 200).map((r) => Number(r.headers.get('ratelimit-remaining')))
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4, 5])
  })

  test('failed sign-ins are counted across instances', async () => {
    const user = await a.user()
    await setPassword(a.ctx, { name: user.name, password: 'correct horse battery' })
    const send = onPinnedClock()
    const signIn = (server: TestServer, password: string) =>
      send(server, '/api/auth/login', {
        method: 'POST',
        body: JSON.stringify({ username: user.name, password }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
      })
    expect((await signIn(a, 'wrong one')).status).toBe(401)
    expect((await signIn(b, 'wrong two')).status).toBe(401)
    expect((await signIn(a, 'wrong three')).status).toBe(401)
    // The address has used its 3 failures, two here and one there: refused on either instance.
    expect((await signIn(b, 'wrong four')).status).toBe(429)
    expect((await signIn(a, 'correct horse battery')).status).toBe(429)
  })

  test('wrong link passwords are counted across instances', async () => {
    const file = await uploadPdf(a, owner, { bytes: makePdf() })
    const link = await addLink(a, file.id, { password: 'open sesame' })
    const send = onPinnedClock()
    const unlock = (server: TestServer, password: string) =>
      send(server, link.path, {
        method: 'POST',
        body: new URLSearchParams({ password }).toString(),
        headers: { 'user-agent': FIREFOX, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.77' },
      })
    for (let i = 0; i < 10; i++) expect((await unlock(instances[i % 2]!, `guess ${i}`)).status).toBe(401)
    expect((await unlock(a, 'guess 10')).status).toBe(429)
    expect((await unlock(b, 'open sesame')).status).toBe(429)
  })

  test("a user's uploads at once are bounded across instances, and a finished upload frees its slot", async () => {
    const user = await a.user()
    // An upload that streams until told to finish, on instance a.
    let finish: () => void = () => {}
    const finished = new Promise<void>((resolve) => (finish = resolve))
    const encoded = new Response(form({ bytes: makePdf() }))
    const contentType = encoded.headers.get('content-type')!
    const whole = new Uint8Array(await encoded.arrayBuffer())
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(whole.slice(0, 100))
        await finished
        controller.enqueue(whole.slice(100))
        controller.close()
      },
    })
    const slow = a.app.handle(
      new Request(`${BASE}/api/files/upload`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType },
        // @ts-expect-error Bun needs this for a streamed request body
        duplex: 'half',
      }),
    )
    // While it runs, the same user's upload through the other instance is refused.
    let refused: Response | undefined
    for (let i = 0; i < 50 && refused?.status !== 429; i++) {
      await Bun.sleep(20)
      refused = await b.call('POST', '/api/files/upload', { token: user.token, body: form({ bytes: makePdf() }) })
    }
    expect(refused?.status).toBe(429)
    expect((await refused!.json()).error).toContain('Too many uploads in progress for this account')
    finish()
    expect((await slow).status).toBe(201)
    expect((await b.call('POST', '/api/files/upload', { token: user.token, body: form({ bytes: makePdf() }) })).status).toBe(201)
  })
})

describe('no instance serves what another has changed', () => {
  test('a token revoked through one instance is refused by the other at once', async () => {
    const user = await a.user()
    expect((await b.call('GET', '/api/me', { token: user.token })).status).toBe(200)
    expect((await a.call('DELETE', `/api/tokens/${user.tokenId}`, { token: user.token })).status).toBe(200)
    expect((await b.call('GET', '/api/me', { token: user.token })).status).toBe(401)
  })

  test('a file deleted through one instance is gone on the other at once, page and bytes', async () => {
    const file = await uploadPdf(a, owner, { bytes: makePdf() })
    const path = new URL(file.shareUrl).pathname.replace(/^\/base/, '')
    expect((await b.call('GET', `${path}/file`, { headers: { 'user-agent': FIREFOX } })).status).toBe(200)
    expect((await a.call('DELETE', `/api/files/${file.id}`, { token: owner.token })).status).toBe(200)
    expect((await b.call('GET', path, { headers: { 'user-agent': FIREFOX } })).status).toBe(404)
    expect((await b.call('GET', `${path}/file`, { headers: { 'user-agent': FIREFOX } })).status).toBe(404)
  })
})
