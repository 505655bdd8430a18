import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { makePdf } from '../../scripts/support/pdf'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import type { LinkDto } from '../../src/routes/links/model'
import { openContext } from '../../src/open-context'
import { form, json, startTestApp, type TestServer } from '../support/harness'
import { EMBED_ORIGINS_RULE_TEXT as EMBED_LIST_RULE } from '../../src/core/links/embed-origins'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'

const HOUR = 3_600_000
const future = (ms = 24 * HOUR) => new Date(Date.now() + ms).toISOString()

type Caller = { token: string }

const send = (server: TestServer, method: string, path: string, user: Caller, body?: unknown) =>
  server.call(method, path, {
    token: user.token,
    body: body === undefined ? null : JSON.stringify(body),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  })

async function created(server: TestServer, user: Caller, fileId: string, body: unknown = {}): Promise<LinkDto> {
  const response = await send(server, 'POST', `/api/files/${fileId}/links`, user, body)
  const text = await response.text()
  expect(response.status, text).toBe(201)
  return JSON.parse(text).data
}

async function refusal(response: Response, status = 400): Promise<string> {
  const body = await json(response)
  expect({ status: response.status, success: body.success }).toEqual({ status, success: false })
  return body.error
}

const server = await startTestApp()
const { links } = server.ctx.db.tables

describe('links of a file', () => {
  test('a new file has its default link, listed first; a new link with defaults; GET of one link', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const listed = await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))
    expect(listed.data).toHaveLength(1)
    const [defaultLink] = listed.data as LinkDto[]
    expect(defaultLink).toMatchObject({
      fileId: file.id,
      url: file.shareUrl,
      label: '',
      isDefault: true,
      allowDownload: true,
      searchEngineVisible: false,
      expiresAt: null,
      maxViews: null,
      hasPassword: false,
      disabled: false,
      access: 'open',
      allow: [],
      deny: [],
      agreement: null,
      agreementVersion: 0,
      embedOrigins: [],
      views: 0,
      state: 'active',
    })

    const link = await created(server, alice, file.id)
    expect(link).toMatchObject({ isDefault: false, label: '', allowDownload: true, searchEngineVisible: false, state: 'active' })
    expect(link.url).toStartWith('https://pdf.example.test/base/s/')
    expect(link.url).not.toBe(file.shareUrl)
    expect(link.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(JSON.stringify(link)).not.toContain('argon2')

    const second = await created(server, alice, file.id, { label: 'Board', disabled: true })
    const order = (await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))).data.map((l: LinkDto) => l.id)
    expect(order).toEqual([defaultLink!.id, link.id, second.id])

    const got = await send(server, 'GET', `/api/links/${second.id}`, alice)
    expect(got.status).toBe(200)
    expect((await json(got)).data).toEqual({ ...second, state: 'disabled' })
  })

  test('every field on create: label, password, expiry, view limit, switches', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const expiresAt = future()
    const link = await created(server, alice, file.id, {
      label: ' Cafe\u0301 ',
      password: 'open sesame',
      expiresAt,
      maxViews: 3,
      allowDownload: 'no',
      searchEngineVisible: true,
      disabled: 0,
      unknownField: 'ignored',
    })
    expect(link).toMatchObject({
      label: ' Café ',
      hasPassword: true,
      expiresAt,
      maxViews: 3,
      allowDownload: false,
      searchEngineVisible: true,
      disabled: false,
      state: 'active',
    })
    const hash = await column(server, link.id, 'password_hash')
    expect(String(hash)).toStartWith('$argon2id$')
    expect(await Bun.password.verify('open sesame', String(hash))).toBe(true)
    // An expiry with an offset is the same instant.
    const offset = await created(server, alice, file.id, { expiresAt: '2099-06-01T12:00:00+02:00' })
    expect(offset.expiresAt).toBe('2099-06-01T10:00:00.000Z')
  })

  test('PATCH changes only what is sent, null clears every setting, "" clears the label', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id, { label: 'x', password: 'secret1', expiresAt: future(), maxViews: 5 })
    const onlyLabel = await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, { label: 'Renamed' }))
    expect(onlyLabel.data).toMatchObject({ label: 'Renamed', hasPassword: true, maxViews: 5, expiresAt: link.expiresAt })
    expect(onlyLabel.data.updatedAt > link.updatedAt).toBe(true)

    const cleared = await send(server, 'PATCH', `/api/links/${link.id}`, alice, {
      label: null,
      password: null,
      expiresAt: null,
      maxViews: null,
    })
    expect(cleared.status).toBe(200)
    expect((await json(cleared)).data).toMatchObject({ label: '', hasPassword: false, expiresAt: null, maxViews: null })
    expect(await column(server, link.id, 'password_hash')).toBeNull()

    const again = await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, { label: 'again' }))
    expect(again.data.label).toBe('again')
    expect((await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, { label: '' }))).data.label).toBe('')

    const switched = await json(
      await send(server, 'PATCH', `/api/links/${link.id}`, alice, { disabled: true, allowDownload: false, searchEngineVisible: 'yes' }),
    )
    expect(switched.data).toMatchObject({ disabled: true, state: 'disabled', allowDownload: false, searchEngineVisible: true })
  })

  test('settings changed after sharing: a new expiry, a new password, a limit at or below the views (used_up)', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id, { expiresAt: future(HOUR) })
    const later = future(48 * HOUR)
    const moved = await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, { expiresAt: later }))
    expect(moved.data.expiresAt).toBe(later)
    expect((await json(await send(server, 'GET', `/api/links/${link.id}`, alice))).data.expiresAt).toBe(later)

    await send(server, 'PATCH', `/api/links/${link.id}`, alice, { password: 'first' })
    const firstHash = String(await column(server, link.id, 'password_hash'))
    await send(server, 'PATCH', `/api/links/${link.id}`, alice, { password: 'second' })
    const secondHash = String(await column(server, link.id, 'password_hash'))
    expect(secondHash).not.toBe(firstHash)
    expect(await Bun.password.verify('second', secondHash)).toBe(true)

    await setColumn(server, link.id, 'views', 4)
    const limited = await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, { maxViews: 4 }))
    expect(limited.data).toMatchObject({ views: 4, maxViews: 4, state: 'used_up' })
    const raised = await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, { maxViews: 5 }))
    expect(raised.data.state).toBe('active')
    // A link whose expiry has passed reads as expired.
    await setColumn(server, link.id, 'expires_at', Date.now() - 1000)
    expect((await json(await send(server, 'GET', `/api/links/${link.id}`, alice))).data.state).toBe('expired')
  })

  test('DELETE removes a link (then 404); the default link cannot be deleted (409)', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id)
    const deleted = await send(server, 'DELETE', `/api/links/${link.id}`, alice)
    expect(deleted.status).toBe(200)
    expect((await json(deleted)).data).toEqual({ id: link.id })
    expect((await send(server, 'GET', `/api/links/${link.id}`, alice)).status).toBe(404)
    expect((await send(server, 'DELETE', `/api/links/${link.id}`, alice)).status).toBe(404)

    const [defaultLink] = (await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))).data
    const refused = await send(server, 'DELETE', `/api/links/${defaultLink.id}`, alice)
    expect(refused.status).toBe(409)
    expect(await json(refused)).toEqual({
      success: false,
      code: 'conflict',
      error: 'The default link of a file cannot be deleted; disable it, or delete the file',
    })
    expect((await send(server, 'GET', `/api/links/${defaultLink.id}`, alice)).status).toBe(200)
  })

  test('deleting the file ends its links', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id)
    expect((await server.call('DELETE', `/api/files/${file.id}`, { token: alice.token })).status).toBe(200)
    expect((await send(server, 'GET', `/api/links/${link.id}`, alice)).status).toBe(404)
    expect((await send(server, 'PATCH', `/api/links/${link.id}`, alice, { label: 'x' })).status).toBe(404)
    expect((await send(server, 'GET', `/api/files/${file.id}/links`, alice)).status).toBe(404)
    expect(await column(server, link.id, 'id')).toBeUndefined()
  })

  test('at most 100 links a file', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    // 98 more straight into the database: with the default link and one through the API, 100.
    for (let i = 0; i < 98; i++) await addLink(server, file.id)
    await created(server, alice, file.id)
    const refused = await send(server, 'POST', `/api/files/${file.id}/links`, alice, {})
    expect(await refusal(refused)).toBe('A file may have at most 100 links; delete one first')
  })
})

describe('the File and its default link', () => {
  test("allowDownload and searchEngineVisible of the File are the default link's, after a PUT and after a PATCH", async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const put = await server.call('PUT', `/api/files/${file.id}`, {
      token: alice.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ allowDownload: false, searchEngineVisible: true }),
    })
    expect(put.status).toBe(200)
    const [afterPut] = (await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))).data
    expect(afterPut).toMatchObject({ isDefault: true, allowDownload: false, searchEngineVisible: true })

    await send(server, 'PATCH', `/api/links/${afterPut.id}`, alice, { allowDownload: true, searchEngineVisible: false })
    const fileNow = (await json(await server.call('GET', `/api/files/${file.id}`, { token: alice.token }))).data
    expect(fileNow).toMatchObject({ allowDownload: true, searchEngineVisible: false })

    // Another link's switches are its own.
    const other = await created(server, alice, file.id, { allowDownload: false })
    expect(other.allowDownload).toBe(false)
    expect((await json(await server.call('GET', `/api/files/${file.id}`, { token: alice.token }))).data.allowDownload).toBe(true)
  })

  test('upload with password, expiresAt and maxViews sets the default link; empty values are left out', async () => {
    const alice = await server.user()
    const expiresAt = future()
    const file = await uploadPdf(server, alice, undefined, { password: 'upload pw', expiresAt, maxViews: '7', allowDownload: 'off' })
    const [link] = (await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))).data
    expect(link).toMatchObject({ url: file.shareUrl, hasPassword: true, expiresAt, maxViews: 7, allowDownload: false })
    expect(await Bun.password.verify('upload pw', String(await column(server, link.id, 'password_hash')))).toBe(true)

    const plain = await uploadPdf(server, alice, undefined, { password: '', expiresAt: '', maxViews: '' })
    const [plainLink] = (await json(await send(server, 'GET', `/api/files/${plain.id}/links`, alice))).data
    expect(plainLink).toMatchObject({ hasPassword: false, expiresAt: null, maxViews: null })
  })

  test('upload refuses bad link fields with the same messages, and stores nothing', async () => {
    const alice = await server.user()
    const cases: [Record<string, string>, string][] = [
      [{ password: 'abc' }, 'password must be 4 to 200 characters'],
      [{ expiresAt: 'tomorrow' }, 'expiresAt must be an ISO 8601 date-time with a timezone, e.g. 2026-12-31T23:59:00Z'],
      [{ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt must be in the future; to end a link now, disable it'],
      [{ maxViews: '0' }, 'maxViews must be an integer from 1 to 1000000000'],
      [{ maxViews: '2.5' }, 'maxViews must be an integer from 1 to 1000000000'],
    ]
    for (const [fields, message] of cases) {
      const response = await server.call('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: makePdf() }, fields) })
      expect(await refusal(response), JSON.stringify(fields)).toBe(message)
    }
    expect((await json(await server.call('GET', '/api/files', { token: alice.token }))).data).toEqual([])
  })
})

describe('validation', () => {
  const cases: [string, unknown, string][] = [
    ['label too long', { label: 'x'.repeat(101) }, 'label must be at most 100 characters'],
    ['label with a control character', { label: 'a\u0007b' }, 'label must not contain control characters'],
    [
      'label with a bidi override',
      { label: 'a\u202Eb' },
      'label must not contain U+202E (control, line separator or bidirectional formatting characters)',
    ],
    ['label not a string', { label: 5 }, 'label must be a string'],
    ['password too short', { password: 'abc' }, 'password must be 4 to 200 characters'],
    ['password too long', { password: 'p'.repeat(201) }, 'password must be 4 to 200 characters'],
    ['password not a string', { password: 1234 }, 'password must be a string'],
    [
      'expiresAt without a timezone',
      { expiresAt: '2099-01-01T00:00:00' },
      'expiresAt must be an ISO 8601 date-time with a timezone, e.g. 2026-12-31T23:59:00Z',
    ],
    [
      'expiresAt not a date',
      { expiresAt: 'next week' },
      'expiresAt must be an ISO 8601 date-time with a timezone, e.g. 2026-12-31T23:59:00Z',
    ],
    [
      'expiresAt on 31 February',
      { expiresAt: '2099-02-31T00:00:00Z' },
      'expiresAt must be an ISO 8601 date-time with a timezone, e.g. 2026-12-31T23:59:00Z',
    ],
    [
      'expiresAt a number',
      { expiresAt: 4102444800000 },
      'expiresAt must be an ISO 8601 date-time with a timezone, e.g. 2026-12-31T23:59:00Z',
    ],
    ['expiresAt in the past', { expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt must be in the future; to end a link now, disable it'],
    ['maxViews zero', { maxViews: 0 }, 'maxViews must be an integer from 1 to 1000000000'],
    ['maxViews too large', { maxViews: 1_000_000_001 }, 'maxViews must be an integer from 1 to 1000000000'],
    ['maxViews a fraction', { maxViews: 1.5 }, 'maxViews must be an integer from 1 to 1000000000'],
    ['maxViews a string', { maxViews: '3' }, 'maxViews must be an integer from 1 to 1000000000'],
    [
      'allowDownload not a boolean',
      { allowDownload: 'maybe' },
      'allowDownload must be one of true, false, 1, 0, yes, no, on, off (got "maybe")',
    ],
    [
      'searchEngineVisible empty',
      { searchEngineVisible: '' },
      'searchEngineVisible must be one of true, false, 1, 0, yes, no, on, off (got an empty value)',
    ],
    ['disabled not a boolean', { disabled: 2 }, 'disabled must be one of true, false, 1, 0, yes, no, on, off (got 2)'],
    ['body an array', [], 'The JSON body must be an object, e.g. {"label": "For the board", "maxViews": 10}'],
    ['access unknown', { access: 'friends' }, 'access must be one of "open", "email", "verified-email"'],
    [
      'allow not a list',
      { access: 'email', allow: '@acme.com' },
      'allow must be a list of addresses and @domains, e.g. ["ada@acme.com", "@acme.com"]',
    ],
    [
      'deny with something else',
      { access: 'email', deny: ['ada@acme.com', 'acme.com'] },
      'deny must hold only addresses (ada@acme.com) and @domains (@acme.com); "acme.com" is neither',
    ],
    [
      'allow too long',
      { access: 'email', allow: Array.from({ length: 501 }, (_, i) => `r${i}@acme.com`) },
      'allow must have at most 500 entries',
    ],
    [
      'allow on an open link',
      { allow: ['@acme.com'] },
      'allow and deny apply to links that ask for an address: send access "email" or "verified-email" with them, or empty them (allow: [], deny: [])',
    ],
    [
      'verified-email without a mail server',
      { access: 'verified-email' },
      'access "verified-email" mails each reader a code, and this server has no mail server: set PDFSHARE_SMTP_URL, or use access "email"',
    ],
    ['agreement blank', { agreement: '  \n ' }, 'agreement must not be empty; null removes it'],
    ['agreement too long', { agreement: 'x'.repeat(20_001) }, 'agreement must be at most 20000 characters'],
    [
      'agreement with a control character',
      { agreement: 'a\u0000b' },
      'agreement must not contain control characters (tab and line feed are allowed)',
    ],
  ]

  const ORIGINS_RULE =
    'embedOrigins must hold only origins such as "https://intranet.example.com" (https, no path, no wildcard; http only for localhost);'
  cases.push(
    ['embedOrigins not a list', { embedOrigins: 'https://a.example' }, EMBED_LIST_RULE],
    ['embedOrigins too many', { embedOrigins: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }, EMBED_LIST_RULE],
    [
      'embedOrigins plain http',
      { embedOrigins: ['http://intranet.example.com'] },
      `${ORIGINS_RULE} "http://intranet.example.com" is not one`,
    ],
    ['embedOrigins with a path', { embedOrigins: ['https://a.example/docs'] }, `${ORIGINS_RULE} "https://a.example/docs" is not one`],
    ['embedOrigins with a wildcard', { embedOrigins: ['https://*.example.com'] }, `${ORIGINS_RULE} "https://*.example.com" is not one`],
    ['embedOrigins a bare host', { embedOrigins: ['intranet.example.com'] }, `${ORIGINS_RULE} "intranet.example.com" is not one`],
    [
      "embedOrigins 'self' smuggled",
      { embedOrigins: ["https://a.example 'unsafe-inline'"] },
      `${ORIGINS_RULE} "https://a.example 'unsafe-inline'" is not one`,
    ],
    ['embedOrigins with a query', { embedOrigins: ['https://a.example?x=1'] }, `${ORIGINS_RULE} "https://a.example?x=1" is not one`],
    ['embedOrigins another scheme', { embedOrigins: ['ftp://a.example'] }, `${ORIGINS_RULE} "ftp://a.example" is not one`],
  )

  test.each(cases)('POST and PATCH refuse %s with a clear 400, and change nothing', async (_name, body, message) => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    expect(await refusal(await send(server, 'POST', `/api/files/${file.id}/links`, alice, body))).toBe(message)
    const [link] = (await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))).data
    expect((await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))).data).toHaveLength(1)
    expect(await refusal(await send(server, 'PATCH', `/api/links/${link.id}`, alice, body))).toBe(message)
    expect((await json(await send(server, 'GET', `/api/links/${link.id}`, alice))).data).toEqual(link)
  })

  test('not JSON: 415; malformed JSON: 400', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const asText = await server.call('POST', `/api/files/${file.id}/links`, {
      token: alice.token,
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    })
    expect(asText.status).toBe(415)
    const broken = await server.call('POST', `/api/files/${file.id}/links`, {
      token: alice.token,
      body: '{"label":',
      headers: { 'content-type': 'application/json' },
    })
    expect(broken.status).toBe(400)
  })

  test('without a token: 401 on every route', async () => {
    for (const [method, path] of [
      ['GET', '/api/files/x/links'],
      ['POST', '/api/files/x/links'],
      ['GET', '/api/links/x'],
      ['PATCH', '/api/links/x'],
      ['DELETE', '/api/links/x'],
    ] as const) {
      expect((await server.call(method, path)).status, `${method} ${path}`).toBe(401)
    }
  })
})

describe('who may open a link', () => {
  test('access, allow and deny as sent, normalised; an agreement gets version 1, new words the next, the same words none', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id, {
      access: 'email',
      allow: [' Ada@Acme.com', '@ACME.com', 'ada@acme.com'],
      deny: ['eve@acme.com'],
      agreement: 'Keep it secret.\r\nKeep it safe.',
    })
    expect(link).toMatchObject({
      access: 'email',
      allow: ['ada@acme.com', '@acme.com'],
      deny: ['eve@acme.com'],
      agreement: 'Keep it secret.\nKeep it safe.',
      agreementVersion: 1,
    })
    const patch = async (body: unknown) => (await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, body))).data as LinkDto
    expect((await patch({ agreement: 'Keep it secret.\nKeep it safe.' })).agreementVersion).toBe(1)
    expect((await patch({ agreement: 'Keep it secret.' })).agreementVersion).toBe(2)
    expect(await patch({ agreement: null })).toMatchObject({ agreement: null, agreementVersion: 2 })
    expect((await patch({ agreement: 'Again.' })).agreementVersion).toBe(3)
    // Back to open needs the lists emptied with it; then they are.
    const refused = await send(server, 'PATCH', `/api/links/${link.id}`, alice, { access: 'open' })
    expect(await refusal(refused)).toContain('allow and deny apply to links that ask for an address')
    expect(await patch({ access: 'open', allow: [], deny: null })).toMatchObject({ access: 'open', allow: [], deny: [] })
    // The audit log keeps the settings, never the agreement's words.
    const entries = (await json(await server.call('GET', '/api/audit?action=link.changed', { token: alice.token }))).data
    expect(entries[0].detail).toMatchObject({ access: 'open', allow: '', deny: '', agreementVersion: 3 })
    expect(JSON.stringify(entries)).not.toContain('Keep it')
  })
})

describe('sites that may frame a link', () => {
  test('embedOrigins as sent, normalised (lower case, no default port, no slash, no repeats); null and [] empty it', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id, {
      embedOrigins: [
        'https://Intranet.Example.com/',
        'https://intranet.example.com:443',
        'https://wiki.example.com:8443',
        'http://localhost:5173',
      ],
    })
    expect(link.embedOrigins).toEqual(['https://intranet.example.com', 'https://wiki.example.com:8443', 'http://localhost:5173'])
    const patch = async (body: unknown) => (await json(await send(server, 'PATCH', `/api/links/${link.id}`, alice, body))).data as LinkDto
    expect((await patch({ label: 'framed' })).embedOrigins).toHaveLength(3) // left alone when not sent
    expect((await patch({ embedOrigins: ['http://127.0.0.1:8080', 'http://[::1]:3000'] })).embedOrigins).toEqual([
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
    ])
    expect((await patch({ embedOrigins: null })).embedOrigins).toEqual([])
    expect((await patch({ embedOrigins: Array.from({ length: 10 }, (_, i) => `https://s${i}.example`) })).embedOrigins).toHaveLength(10)
    expect((await patch({ embedOrigins: [] })).embedOrigins).toEqual([])
    // The audit log keeps the origins with the link's other settings.
    await patch({ embedOrigins: ['https://intranet.example.com'] })
    const entries = (await json(await server.call('GET', '/api/audit?action=link.changed', { token: alice.token }))).data
    expect(entries[0].detail).toMatchObject({ embedOrigins: 'https://intranet.example.com', changed: 'embedOrigins' })
  })
})

describe('ownership', () => {
  test("another user's link and file answer exactly like missing ones, and nothing changes", async () => {
    const alice = await server.user()
    const mallory = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id, { label: 'private' })

    const answers = async (method: string, path: string, body?: unknown) => {
      const response = await send(server, method, path, mallory, body)
      return { status: response.status, body: await response.json() }
    }
    const missingLink = await answers('GET', '/api/links/nosuchlinkid')
    expect(missingLink).toEqual({ status: 404, body: { success: false, code: 'not_found', error: 'Link not found' } })
    expect(await answers('GET', `/api/links/${link.id}`)).toEqual(missingLink)
    expect(await answers('PATCH', `/api/links/${link.id}`, { label: 'mine', disabled: true })).toEqual(missingLink)
    expect(await answers('DELETE', `/api/links/${link.id}`)).toEqual(missingLink)

    const missingFile = await answers('GET', '/api/files/nosuchfileid/links')
    expect(missingFile).toEqual({ status: 404, body: { success: false, code: 'not_found', error: 'File not found' } })
    expect(await answers('GET', `/api/files/${file.id}/links`)).toEqual(missingFile)
    expect(await answers('POST', `/api/files/${file.id}/links`, {})).toEqual(missingFile)
    expect(await answers('POST', '/api/files/nosuchfileid/links', {})).toEqual(missingFile)

    const still = (await json(await send(server, 'GET', `/api/files/${file.id}/links`, alice))).data
    expect(still).toHaveLength(2)
    expect(still[1]).toMatchObject({ id: link.id, label: 'private', disabled: false })
  })
})

describe('instance policy', () => {
  test('PDFSHARE_LINK_DEFAULT_EXPIRY: a new link (POST or upload) without expiresAt gets now + the default; one sent is kept', async () => {
    const policed = await startTestApp({ PDFSHARE_LINK_DEFAULT_EXPIRY: '12h' })
    const alice = await policed.user()
    const before = Date.now()
    const file = await uploadPdf(policed, alice)
    const [defaultLink] = (await json(await send(policed, 'GET', `/api/files/${file.id}/links`, alice))).data
    const link = await created(policed, alice, file.id)
    for (const expiry of [defaultLink.expiresAt, link.expiresAt]) {
      const ms = Date.parse(expiry)
      expect(ms).toBeGreaterThanOrEqual(before + 12 * HOUR)
      expect(ms).toBeLessThanOrEqual(Date.now() + 12 * HOUR)
    }
    const chosen = future(72 * HOUR)
    expect((await created(policed, alice, file.id, { expiresAt: chosen })).expiresAt).toBe(chosen)
    // Without a maximum, never is still allowed, explicitly.
    expect((await created(policed, alice, file.id, { expiresAt: null })).expiresAt).toBeNull()
  })

  test('PDFSHARE_LINK_MAX_EXPIRY: beyond it and never are refused on create, upload and PATCH', async () => {
    const policed = await startTestApp({ PDFSHARE_LINK_MAX_EXPIRY: '7d' })
    const alice = await policed.user()
    const noExpiry = await policed.call('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: makePdf() }) })
    expect(await refusal(noExpiry)).toStartWith('This server requires every share link to expire within 1w: send an expiresAt before ')
    const file = await uploadPdf(policed, alice, undefined, { expiresAt: future(6 * 24 * HOUR) })

    const tooFar = await send(policed, 'POST', `/api/files/${file.id}/links`, alice, { expiresAt: future(8 * 24 * HOUR) })
    expect(await refusal(tooFar)).toStartWith('This server allows share links to live at most 1w: expiresAt must be before ')
    expect(await refusal(await send(policed, 'POST', `/api/files/${file.id}/links`, alice, {}))).toStartWith(
      'This server requires every share link to expire within 1w',
    )
    const link = await created(policed, alice, file.id, { expiresAt: future(HOUR) })
    expect(await refusal(await send(policed, 'PATCH', `/api/links/${link.id}`, alice, { expiresAt: null }))).toStartWith(
      'This server requires every share link to expire within 1w',
    )
    expect(await refusal(await send(policed, 'PATCH', `/api/links/${link.id}`, alice, { expiresAt: future(30 * 24 * HOUR) }))).toStartWith(
      'This server allows share links to live at most 1w',
    )
    // A PATCH that leaves the expiry alone is fine.
    expect((await send(policed, 'PATCH', `/api/links/${link.id}`, alice, { label: 'ok' })).status).toBe(200)
  })

  test('PDFSHARE_LINK_REQUIRE_PASSWORD: new links need one (POST and upload), a PATCH can change it but not remove it', async () => {
    const policed = await startTestApp({ PDFSHARE_LINK_REQUIRE_PASSWORD: 'true' })
    const alice = await policed.user()
    const required = 'This server requires a password on every share link: send a password (4 to 200 characters)'
    expect(await refusal(await policed.call('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: makePdf() }) }))).toBe(
      required,
    )
    const file = await uploadPdf(policed, alice, undefined, { password: 'pass' })
    expect(await refusal(await send(policed, 'POST', `/api/files/${file.id}/links`, alice, {}))).toBe(required)
    expect(await refusal(await send(policed, 'POST', `/api/files/${file.id}/links`, alice, { password: null }))).toBe(required)
    const link = await created(policed, alice, file.id, { password: 'word' })
    expect(await refusal(await send(policed, 'PATCH', `/api/links/${link.id}`, alice, { password: null }))).toBe(
      'This server requires a password on every share link: it can be changed, not removed',
    )
    expect((await send(policed, 'PATCH', `/api/links/${link.id}`, alice, { password: 'another' })).status).toBe(200)
  })

  test('existing links are not changed when the policy changes', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const link = await created(server, alice, file.id)
    // The same data dir and database, opened again with a strict policy.
    const policy = loadConfig(
      { data: server.dataDir, 'public-url': 'https://pdf.example.test/base' },
      { PDFSHARE_LINK_MAX_EXPIRY: '1d', PDFSHARE_LINK_REQUIRE_PASSWORD: 'on' },
    )
    const config = { ...server.config, linkMaxExpiry: policy.linkMaxExpiry, linkRequirePassword: policy.linkRequirePassword }
    const ctx = await openContext(config, server.log)
    try {
      const strict = createApp(ctx)
      const response = await strict.handle(
        new Request(`http://localhost/api/links/${link.id}`, { headers: { authorization: `Bearer ${alice.token}` } }),
      )
      expect((await json(response)).data).toMatchObject({ expiresAt: null, hasPassword: false, state: 'active' })
    } finally {
      ctx.close()
    }
  })
})

async function column(server: TestServer, linkId: string, name: string): Promise<unknown> {
  const [row] = await server.ctx.db.orm.all<Record<string, unknown>>(
    sql`SELECT ${sql.identifier(name)} FROM ${links} WHERE ${links.id} = ${linkId}`,
  )
  return row?.[name]
}

async function setColumn(server: TestServer, linkId: string, name: string, value: number): Promise<void> {
  await server.ctx.db.orm.run(sql`UPDATE ${links} SET ${sql.identifier(name)} = ${value} WHERE ${links.id} = ${linkId}`)
}
