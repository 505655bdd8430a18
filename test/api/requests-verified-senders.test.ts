import { afterAll, describe, expect, test } from 'bun:test'
import { startMailWorker } from '../../src/core/mail/mail-worker'
import { CODE_LIMITS, CODE_TRIES } from '../../src/core/readers/mailed-codes'
import type { FileDto } from '../../src/routes/files/model'
import type { RequestDto } from '../../src/routes/requests/model'
import { makePdf } from '../../scripts/support/pdf'
import { form, json, startTestApp } from '../support/harness'
import { startSmtpServer } from '../support/smtp'
import { browserClients } from '../support/browser-client'

// A file request whose senders prove their address with a mailed code (access "verified-email", docs/requests.md):
// the readers' codes (their tries, their limits, the lists answered alike), mailed through a real SMTP server on
// loopback; the code opens sending for that address only, through a cookie scoped to the request, and the file's
// source names the proved address.
const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const server = await startTestApp({
  PDFSHARE_TRUST_PROXY: '1',
  PDFSHARE_RATE_LIMIT_SHARE: '0',
  PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  PDFSHARE_MAIL_FROM: 'pdfshare <pdf@example.test>',
})
const worker = startMailWorker(server.ctx, { pollMs: 100 })!
afterAll(() => worker.stop())
const owner = await server.user('request-owner')
const TITLE = 'Quarterly statements for Lovelace & Co'

async function newRequest(body: Record<string, unknown> = {}): Promise<RequestDto & { slug: string }> {
  const response = await server.call('POST', '/api/requests', {
    token: owner.token,
    body: JSON.stringify({ title: TITLE, ownerName: 'Ms. Owner', access: 'verified-email', ...body }),
    headers: { 'content-type': 'application/json' },
  })
  const text = await response.text()
  expect(response.status, text).toBe(201)
  const request: RequestDto = JSON.parse(text).data
  return { ...request, slug: request.url.split('/u/')[1]! }
}
const received = async (requestId: string): Promise<FileDto[]> =>
  (await json(await server.call('GET', `/api/requests/${requestId}/files`, { token: owner.token }))).data

const senders = browserClients(server, '198.18')
/** A sender's browser: one client address, one cookie jar. */
function sender() {
  const browser = senders({ userAgent: null })
  return {
    ...browser,
    upload: (slug: string, fields: Record<string, string> = {}, bytes = makePdf(), headers: Record<string, string> = {}) =>
      browser.send('POST', `/u/${slug}/files`, { form: form({ bytes, name: 'statement.pdf' }, fields), headers }),
  }
}

const mailsTo = (to: string) => smtp.received.filter((mail) => mail.to.includes(to))
/** The code in the newest mail to `to` once more than `after` mails reached it. */
async function codeMailed(to: string, after = 0): Promise<string> {
  worker.nudge()
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const mails = mailsTo(to)
    if (mails.length > after) {
      const { data } = mails.at(-1)!
      expect(data).toMatch(/^Subject: Your code to send a file$/m)
      // Nothing of the request or its owner: not its title, not the name it shows, not the owner's account.
      for (const secret of ['Lovelace', 'Ms. Owner', 'request-owner', 'Quarterly']) expect(data).not.toContain(secret)
      const code = /Your code is (\d{6})\./.exec(data)
      if (!code) throw new Error(`a mail to ${to} without a code`)
      return code[1]!
    }
    await Bun.sleep(25)
  }
  throw new Error(`no code mailed to ${to}`)
}
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
async function refusedWith(response: Response, status: number, code: string): Promise<void> {
  const body = await response.text()
  expect({ status: response.status, code: JSON.parse(body).code }, body).toEqual({ status, code })
}

describe('access "verified-email": a code mailed to the sender', () => {
  test('opens sending for the address it proved: its cookie scoped to the request, the file’s source that address', async () => {
    const request = await newRequest()
    const someone = sender()
    await refusedWith(await someone.upload(request.slug, { email: 'ada@example.com' }), 403, 'sender_refused')

    const page = await someone.get(`/u/${request.slug}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`action="/base/u/${request.slug}/sender"`)
    expect(html).not.toContain('type="file"')

    const asked = await someone.post(`/u/${request.slug}/sender`, { email: ' Ada@Example.com ' })
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain('We sent a 6-digit code to ada@example.com')
    const code = await codeMailed('ada@example.com')

    const wrong = await someone.post(`/u/${request.slug}/code`, { email: 'ada@example.com', code: otherCode(code) })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain(`Wrong code. ${CODE_TRIES - 1} tries left.`)
    const right = await someone.post(`/u/${request.slug}/code`, { email: 'ada@example.com', code })
    expect(right.status).toBe(303)
    expect(right.headers.get('location')).toBe(`/base/u/${request.slug}`)
    expect(right.headers.getSetCookie()[0]).toMatch(
      new RegExp(`^pdfshare_sender=[^;]+; Max-Age=43200; Path=/base/u/${request.slug}; HttpOnly; SameSite=Lax; Secure$`),
    )
    // Once: the same code again is spent.
    expect((await sender().post(`/u/${request.slug}/code`, { email: 'ada@example.com', code })).status).toBe(401)

    const form = await (await someone.get(`/u/${request.slug}`)).text()
    expect(form).toContain('value="ada@example.com" readonly')
    expect(form).toContain('type="file"')
    expect((await someone.upload(request.slug)).status).toBe(201)
    expect((await someone.upload(request.slug, { email: 'ADA@example.com' })).status).toBe(201)
    // The form cannot name someone else.
    await refusedWith(await someone.upload(request.slug, { email: 'eve@example.com' }), 403, 'sender_refused')
    expect((await received(request.id)).map((file) => file.source?.email)).toEqual(['ada@example.com', 'ada@example.com'])

    // The cookie opens this request only.
    const other = await newRequest()
    const borrowed = sender()
    borrowed.jar.set('pdfshare_sender', someone.jar.get('pdfshare_sender')!)
    await refusedWith(await borrowed.upload(other.slug), 403, 'sender_refused')
    expect(await received(other.id)).toEqual([])
  })

  test('the lists: an address they keep out is answered alike and mailed nothing, its code never works; a denial later is out at once', async () => {
    const request = await newRequest({ allow: ['@example.com'], deny: ['intern@example.com'] })
    const outsider = sender()
    const before = mailsTo('eve@elsewhere.test').length
    const asked = await outsider.post(`/u/${request.slug}/sender`, { email: 'eve@elsewhere.test' })
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain('We sent a 6-digit code to eve@elsewhere.test')
    for (let i = 1; i < CODE_TRIES; i++)
      expect((await outsider.post(`/u/${request.slug}/code`, { email: 'eve@elsewhere.test', code: '123456' })).status).toBe(401)
    worker.nudge()
    await Bun.sleep(500)
    expect(mailsTo('eve@elsewhere.test').length).toBe(before)
    expect(outsider.jar.has('pdfshare_sender')).toBe(false)

    const grace = sender()
    await grace.post(`/u/${request.slug}/sender`, { email: 'grace@example.com' })
    const code = await codeMailed('grace@example.com')
    expect((await grace.post(`/u/${request.slug}/code`, { email: 'grace@example.com', code })).status).toBe(303)
    await server.call('PATCH', `/api/requests/${request.id}`, {
      token: owner.token,
      body: JSON.stringify({ deny: ['intern@example.com', 'grace@example.com'] }),
      headers: { 'content-type': 'application/json' },
    })
    await refusedWith(await grace.upload(request.slug), 403, 'sender_refused')
    expect(await received(request.id)).toEqual([])
  })

  test(`${CODE_TRIES} wrong codes kill the code; ${CODE_LIMITS.perAddress} codes an hour to one address, then 429 and no mail`, async () => {
    const request = await newRequest()
    const someone = sender()
    await someone.post(`/u/${request.slug}/sender`, { email: 'lin@example.com' })
    const code = await codeMailed('lin@example.com')
    for (let i = 0; i < CODE_TRIES; i++)
      expect((await someone.post(`/u/${request.slug}/code`, { email: 'lin@example.com', code: otherCode(code) })).status).toBe(401)
    const dead = await someone.post(`/u/${request.slug}/code`, { email: 'lin@example.com', code })
    expect(dead.status).toBe(401)
    expect(await dead.text()).toContain('expired or was tried too often')

    // Over the hour's codes, from any client: the first one above, four more, then refused.
    for (let i = 1; i < CODE_LIMITS.perAddress; i++)
      expect((await sender().post(`/u/${request.slug}/sender`, { email: 'Lin@example.com' })).status).toBe(200)
    await codeMailed('lin@example.com', CODE_LIMITS.perAddress - 1)
    const over = await sender().post(`/u/${request.slug}/sender`, { email: 'lin@example.com' })
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    worker.nudge()
    await Bun.sleep(500)
    expect(mailsTo('lin@example.com').length).toBe(CODE_LIMITS.perAddress)
  })

  test('Idempotency-Key: a sender’s keys are scoped to the address a code proved', async () => {
    const request = await newRequest()
    const proved = async (address: string) => {
      const someone = sender()
      await someone.post(`/u/${request.slug}/sender`, { email: address })
      const code = await codeMailed(address)
      expect((await someone.post(`/u/${request.slug}/code`, { email: address, code })).status).toBe(303)
      return someone
    }
    const [ada, grace] = [await proved('ada.keys@example.com'), await proved('grace.keys@example.com')]
    const bytes = makePdf()
    const keyed = (who: ReturnType<typeof sender>) => who.upload(request.slug, {}, bytes, { 'idempotency-key': 'one-key' })
    expect((await keyed(ada)).status).toBe(201)
    const replayed = await keyed(ada)
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    const other = await keyed(grace)
    expect(other.status).toBe(201)
    expect(other.headers.get('idempotent-replayed')).toBeNull()
    expect((await received(request.id)).map((file) => file.source?.email).sort()).toEqual([
      'ada.keys@example.com',
      'grace.keys@example.com',
    ])
  })

  test('a request of another access has no code forms; a password comes first', async () => {
    const open = await newRequest({ access: 'open' })
    expect((await sender().post(`/u/${open.slug}/sender`, { email: 'ada@example.com' })).status).toBe(404)
    const locked = await newRequest({ password: 'correct horse' })
    expect((await sender().post(`/u/${locked.slug}/sender`, { email: 'ada@example.com' })).status).toBe(403)
    const someone = sender()
    const unlocked = await someone.post(`/u/${locked.slug}`, { password: 'correct horse' })
    expect(unlocked.status).toBe(200)
    expect(await unlocked.text()).toContain(`action="/base/u/${locked.slug}/sender"`)
    expect((await someone.post(`/u/${locked.slug}/sender`, { email: 'mo@example.com' })).status).toBe(200)
    // A form another site made the browser send is refused before it is read, and mails nothing.
    const crossSite = await server.call('POST', `/u/${locked.slug}/sender`, {
      body: 'email=mo%40example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.status).toBe(403)
  })
})
