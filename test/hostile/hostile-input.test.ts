import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { SignJWT } from 'jose'
import { BASE, form, json, rawMultipart, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'

// Hostile input through HTTP: every case answers a 4xx (the failure envelope on /api), never a 5xx, and
// afterwards the server is healthy and nobody's data has changed. Raw HTTP framing is in raw-http.test.ts.
const server = await startTestApp({ PDFSHARE_MAX_FILE_SIZE: '2MB' })
const alice = await server.user('alice')
const mallory = await server.user('mallory')
const pdf = makePdf()
const file = await uploadPdf(server, alice, pdf, { title: 'Alice private' })
const slug = sharePathOf(file).split('/')[2]!

type Case = {
  name: string
  method?: string
  path: string
  token?: string | null
  headers?: Record<string, string>
  body?: BodyInit
  expect?: number | number[]
}
/** Odd but harmless input that is accepted (and must still never be a 5xx or change anything it should not). */
const tolerated: Case[] = []
const cases: Case[] = []
const add = (group: string, list: Case[]) => cases.push(...list.map((c) => ({ ...c, name: `${group}: ${c.name}` })))

const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', ...header } as { alg: string }).sign(server.ctx.signingKey)
/** A correctly signed HS256 JWT with any header at all (jose refuses to sign some of these). */
const rawJwt = (header: Record<string, unknown>, claims: Record<string, unknown>) => {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const input = `${encode(header)}.${encode(claims)}`
  return `${input}.${createHmac('sha256', server.ctx.signingKey).update(input).digest('base64url')}`
}
const now = Math.floor(Date.now() / 1000)

// ---- headers and authentication
add('auth', [
  {
    name: 'bearer with 10 KB of garbage',
    path: '/api/files',
    token: null,
    headers: { authorization: `Bearer ${'x'.repeat(10_000)}` },
    expect: 401,
  },
  { name: 'bearer with invalid base64', path: '/api/files', token: null, headers: { authorization: 'Bearer !!!.@@@.###' }, expect: 401 },
  {
    name: 'two bearer tokens',
    path: '/api/files',
    token: null,
    headers: { authorization: `Bearer ${alice.token}, Bearer ${mallory.token}` },
    expect: 401,
  },
  { name: 'token in a Basic scheme', path: '/api/files', token: null, headers: { authorization: `Basic ${alice.token}` }, expect: 401 },
  { name: 'token without scheme', path: '/api/files', token: null, headers: { authorization: alice.token }, expect: 401 },
  {
    name: 'a validly signed JWT of 200 KB (refused on length alone)',
    path: '/api/files',
    token: null,
    headers: {
      authorization: `Bearer ${await sign({ sub: alice.id, jti: alice.tokenId, iss: 'pdfshare', iat: now, pad: 'x'.repeat(200_000) })}`,
    },
    expect: 401,
  },
  {
    name: 'JWT with exp as a string',
    path: '/api/files',
    token: null,
    headers: { authorization: `Bearer ${await sign({ sub: alice.id, jti: alice.tokenId, iss: 'pdfshare', iat: now, exp: 'never' })}` },
    expect: 401,
  },
  {
    name: "JWT with another user's sub",
    path: '/api/files',
    token: null,
    headers: { authorization: `Bearer ${await sign({ sub: mallory.id, jti: alice.tokenId, iss: 'pdfshare', iat: now })}` },
    expect: 401,
  },
  {
    name: 'JWT with crit header',
    path: '/api/files',
    token: null,
    headers: {
      authorization: `Bearer ${rawJwt({ alg: 'HS256', crit: ['exp'] }, { sub: alice.id, jti: alice.tokenId, iss: 'pdfshare', iat: now })}`,
    },
    expect: 401,
  },
  {
    name: 'JWT with a jku header',
    path: '/api/files',
    token: null,
    headers: { authorization: `Bearer ${await sign({ sub: alice.id, jti: alice.tokenId, iss: 'pdfshare' }, { jku: 'http://evil/keys' })}` },
    expect: 401,
  },
  {
    name: 'JWT with jti as a number',
    path: '/api/files',
    token: null,
    headers: { authorization: `Bearer ${await sign({ sub: alice.id, jti: 1, iss: 'pdfshare', iat: now })}` },
    expect: 401,
  },
  {
    name: 'JWT with SQL in jti',
    path: '/api/files',
    token: null,
    headers: { authorization: `Bearer ${await sign({ sub: alice.id, jti: "' OR 1=1 --", iss: 'pdfshare', iat: now })}` },
    expect: 401,
  },
  { name: 'huge cookie header', path: '/api/files/nope', headers: { cookie: `a=${'b'.repeat(7000)}` }, expect: 404 },
  {
    name: 'garbage content type on upload',
    method: 'POST',
    path: '/api/files/upload',
    headers: { 'content-type': '\u00ff\u00fe/\u00fd' },
    body: 'x',
    expect: 415,
  },
  { name: 'upload without any content type', method: 'POST', path: '/api/files/upload', body: new Uint8Array([1, 2, 3]), expect: 415 },
])

// ---- multipart framing
const boundary = 'pdfshareTestBoundary'
const mp = (parts: Parameters<typeof rawMultipart>[0]) => rawMultipart(parts)
const raw = (text: string | Uint8Array<ArrayBuffer>, contentType = `multipart/form-data; boundary=${boundary}`): Case => ({
  name: '',
  method: 'POST',
  path: '/api/files/upload',
  headers: { 'content-type': contentType },
  body: typeof text === 'string' ? new TextEncoder().encode(text) : text,
})
const filePart = { name: 'file', filename: 'a.pdf', type: 'application/pdf', body: pdf }
add('multipart', [
  { ...raw('x', 'multipart/form-data; boundary='), name: 'empty boundary', expect: 400 },
  { ...raw('x', `multipart/form-data; boundary=${'b'.repeat(200)}`), name: 'boundary of 200 characters', expect: 400 },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 no end`,
    ),
    name: 'no closing delimiter',
    expect: 400,
  },
  { ...raw('just a preamble and nothing else'), name: 'only a preamble', expect: 400 },
  { ...raw(''), name: 'empty body', expect: 400 },
  { ...raw(`--${boundary}\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`), name: 'part without Content-Disposition', expect: 400 },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: attachment; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`,
    ),
    name: 'Content-Disposition attachment',
    expect: 400,
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="fi\u0000le"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`,
    ),
    name: 'NUL in a part name',
    expect: 400,
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`,
    ),
    name: 'NUL in a filename',
    expect: [400, 415],
  },
  {
    ...raw(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nline\rbreak\r\n${mpTail()}`),
    name: 'CR in a title',
    expect: 400,
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`,
    ),
    name: 'empty filename',
    expect: [400, 415],
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../../etc/passwd"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`,
    ),
    name: 'traversal in the filename, not .pdf',
    expect: 415,
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nX-Huge: ${'h'.repeat(20_000)}\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`,
    ),
    name: 'a 20 KB part header',
    expect: 400,
  },
  {
    ...raw(
      Array.from({ length: 2000 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('') +
        `--${boundary}--\r\n`,
    ),
    name: '2000 fields',
    expect: 400,
  },
  {
    ...raw(
      `${Array.from(
        { length: 60 },
        () =>
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n`,
      ).join('')}--${boundary}--\r\n`,
    ),
    name: '60 file parts',
    expect: 400,
  },
  {
    ...raw(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${'t'.repeat(100_000)}\r\n${mpTail()}`),
    name: 'a 100 KB field value',
    expect: 400,
  },
  {
    ...raw(`--${boundary}\r\nContent-Disposition: form-data; name="${'n'.repeat(20_000)}"\r\n\r\nv\r\n${mpTail()}`),
    name: 'a 20,000-character field name',
    expect: 400,
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\nContent-Disposition: file; filename="a.pdf"\r\n\r\n%PDF-1.7\r\n--inner--\r\n--${boundary}--\r\n`,
    ),
    name: 'nested multipart/mixed',
    expect: 400,
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjc=\r\n--${boundary}--\r\n`,
    ),
    name: 'base64 transfer encoding',
    expect: 415,
  },
  {
    ...raw(
      `--${boundary}\nContent-Disposition: form-data; name="file"; filename="a.pdf"\nContent-Type: application/pdf\n\n%PDF-1.7\n--${boundary}--\n`,
    ),
    name: 'LF-only line endings',
    expect: 400,
  },
  { ...raw(crypto.getRandomValues(new Uint8Array(4096))), name: '4 KB of random bytes', expect: 400 },
  {
    ...raw(mp([filePart]).body, 'multipart/form-data; boundary="wrongBoundary"'),
    name: 'the boundary in the header is not the one in the body',
    expect: 400,
  },
  {
    ...raw(mp([filePart]).body, 'multipart/mixed; boundary=pdfshareTestBoundary'),
    name: 'multipart/mixed instead of form-data',
    expect: 415,
  },
  { ...raw(mp([filePart, { name: 'allowDownload', body: 'true\u0000' }]).body), name: 'NUL inside a boolean', expect: 400 },
  {
    ...raw(mp([filePart, { name: 'filename', body: `${'x'.repeat(300)}.pdf` }]).body),
    name: 'a 304-character filename field',
    expect: 400,
  },
  {
    ...raw(mp([{ ...filePart, type: 'application/pdf; charset=<script>' }]).body),
    name: 'script in the part content type parameters',
    expect: [201, 415],
  },
])
function mpTail() {
  return `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`
}

// ---- JSON
const putJson = (name: string, body: string | Uint8Array<ArrayBuffer>, expect: number | number[] = 400): Case => ({
  name,
  method: 'PUT',
  path: `/api/files/${file.id}`,
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : body,
  expect,
})
add('json', [
  putJson('10,000 levels of nesting', '['.repeat(10_000) + ']'.repeat(10_000)),
  putJson('100,000 levels of nesting', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, [400, 413]),
  putJson('title as a number', '{"title": 123}'),
  putJson('title as an object', '{"title": {"toString": "x"}}'),
  putJson('title as an array', '{"title": ["a"]}'),
  putJson('allowDownload as an object', '{"allowDownload": {}}'),
  putJson('allowDownload as 1e999', '{"allowDownload": 1e999}'),
  putJson('allowDownload as "maybe"', '{"allowDownload": "maybe"}'),
  putJson('filename as a number', '{"filename": 5}'),
  putJson('filename with a slash', '{"filename": "../../etc/passwd"}'),
  putJson('a 70 KB string', JSON.stringify({ title: 'x'.repeat(70_000) }), 413),
  putJson('a 2 KB title', JSON.stringify({ title: 'x'.repeat(2000) })),
  putJson('NUL in a title', '{"title": "a\\u0000b"}'),
  putJson('a lone surrogate in a title', '{"title": "\\ud800"}'),
  putJson('invalid UTF-8', new Uint8Array([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
  putJson('a byte order mark and garbage', '\ufeff{"title":'),
  putJson('null', 'null'),
  putJson('an array', '[]'),
  putJson('a string', '"title"'),
  putJson('a number', '12'),
  putJson('true', 'true'),
  putJson('trailing garbage', '{"title":"x"} trailing'),
  putJson('single quotes', "{'title':'x'}"),
  putJson('a JSON comment', '{"title":"x" /* c */}'),
  putJson('a 200 KB body with a chunked upload', new TextEncoder().encode(JSON.stringify({ pad: 'p'.repeat(200_000) })), 413),

  putJson('desc and description disagree', '{"desc": "a", "description": "b"}'),
])

// ---- ids and paths
const longId = 'a'.repeat(10_000)
add('paths', [
  { name: 'encoded traversal as an id', path: '/api/files/..%2F..%2Fetc%2Fpasswd', expect: 404 },
  { name: 'encoded NUL as an id', path: '/api/files/%00', expect: 404 },
  { name: 'SQL as an id', path: `/api/files/${encodeURIComponent("' OR 1=1 --")}`, expect: 404 },
  { name: 'SQL with a statement as an id', path: `/api/files/${encodeURIComponent('x; DROP TABLE files; --')}`, expect: 404 },
  { name: 'a 10,000-character id', path: `/api/files/${longId}`, expect: 404 },
  { name: 'a unicode id', path: `/api/files/${encodeURIComponent('ファイル')}`, expect: 404 },
  { name: 'an id with dots', path: '/api/files/....', expect: 404 },
  { name: 'double slash', path: '/api//files', expect: 404 },
  { name: 'content of a traversal id', path: '/api/files/..%2F/content', expect: 404 },
  { name: 'content of an SQL id', path: `/api/files/${encodeURIComponent("1' UNION SELECT * FROM tokens --")}/content`, expect: 404 },
  { name: 'delete with a LIKE pattern', method: 'DELETE', path: '/api/files/%25', expect: 404 },
  {
    name: 'PUT with a wildcard id',
    method: 'PUT',
    path: '/api/files/*',
    headers: { 'content-type': 'application/json' },
    body: '{"title":"x"}',
    expect: 404,
  },
  { name: 'share slug traversal', path: '/s/..%2F..%2Fpackage.json', token: null, expect: 404 },
  { name: 'share slug with NUL', path: `/s/${slug}%00/file`, token: null, expect: 404 },
  { name: 'share slug with SQL', path: `/s/${encodeURIComponent("' OR '1'='1")}`, token: null, expect: 404 },
  { name: 'share slug of 10,000 characters', path: `/s/${longId}`, token: null, expect: 404 },
  { name: 'asset traversal', path: '/assets/..%2F..%2Fpackage.json', token: null, expect: 404 },
  { name: 'asset double-encoded traversal', path: '/assets/%252e%252e%252fpackage.json', token: null, expect: 404 },
  { name: 'asset absolute path', path: '/assets//etc/passwd', token: null, expect: 404 },
  { name: 'asset manifest itself', path: '/assets/manifest.json', token: null, expect: 404 },
])

// ---- query parameters
add('query', [
  { name: 'limit -1', path: '/api/files?limit=-1', expect: 400 },
  { name: 'limit 1e3', path: '/api/files?limit=1e3', expect: 400 },
  { name: 'limit NaN', path: '/api/files?limit=NaN', expect: 400 },
  { name: 'limit empty', path: '/api/files?limit=', expect: 400 },
  { name: 'cursor with NUL', path: '/api/files?cursor=%00', expect: 400 },
  { name: 'a 10 KB cursor', path: `/api/files?cursor=${'A'.repeat(10_000)}`, expect: 400 },
  {
    name: 'cursor past any sequence',
    path: `/api/files?cursor=${Buffer.from('seq:99999999999999999999').toString('base64url')}`,
    expect: 400,
  },
  { name: 'cursor with SQL', path: `/api/files?cursor=${Buffer.from('seq:1 OR 1=1').toString('base64url')}`, expect: 400 },
])

// ---- methods
add('methods', [
  { name: 'PATCH a file', method: 'PATCH', path: `/api/files/${file.id}`, expect: 404 },
  {
    name: 'PUT the upload route',
    method: 'PUT',
    path: '/api/files/upload',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    expect: 404,
  },
  { name: 'DELETE the collection', method: 'DELETE', path: '/api/files', expect: 404 },
  { name: 'POST to content', method: 'POST', path: `/api/files/${file.id}/content`, expect: 404 },
  { name: 'OPTIONS on the API', method: 'OPTIONS', path: '/api/files', expect: 404 },
  { name: 'POST to a share page', method: 'POST', path: `/s/${slug}`, token: null, expect: 404 },
  { name: 'DELETE a share page', method: 'DELETE', path: `/s/${slug}`, token: null, expect: 404 },
  { name: 'PUT an asset', method: 'PUT', path: '/assets/x.js', token: null, expect: 404 },
])

// ---- cross-user attempts with hostile twists
add('isolation', [
  { name: "mallory reads alice's file with a trailing slash", path: `/api/files/${file.id}/`, token: mallory.token, expect: 404 },
  {
    name: "mallory reads alice's file with different case",
    path: `/api/files/${file.id.toUpperCase()}`,
    token: mallory.token,
    expect: 404,
  },
  {
    name: "mallory replaces alice's file",
    method: 'PUT',
    path: `/api/files/${file.id}`,
    token: mallory.token,
    body: form({ bytes: makePdf({ text: () => 'pwned' }) }),
    expect: 404,
  },
  {
    name: "mallory deletes alice's file with an encoded id",
    method: 'DELETE',
    path: `/api/files/${encodeURIComponent(file.id)}`,
    token: mallory.token,
    expect: 404,
  },
])

tolerated.push(
  { ...putJson('__proto__ is ignored, nothing polluted', '{"__proto__": {"polluted": true}, "desc": "proto test"}', 200) },
  { ...putJson('constructor.prototype is ignored', '{"constructor": {"prototype": {"polluted": true}}}', 200) },
  { ...putJson('id, views and fileSize cannot be set (ignored)', '{"id": "other", "views": 1000000, "fileSize": -1}', 200) },
  { name: 'limit in hex is read as a number', path: '/api/files?limit=0x10', expect: 200 },
  { name: 'limit given twice', path: '/api/files?limit=1&limit=2', expect: 200 },
  {
    ...raw(`--${boundary}\r\nContent-Disposition: form-data; name="${'n'.repeat(1000)}"\r\n\r\nv\r\n${mpTail()}`),
    name: 'an unknown field with a 1000-character name is ignored',
    expect: 201,
  },
  {
    ...raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n${'X-Pad: y\r\n'.repeat(40)}Content-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`,
    ),
    name: '40 extra header lines in a part are ignored',
    expect: 201,
  },
)

describe(`${cases.length} hostile requests refused, ${tolerated.length} odd ones tolerated`, () => {
  test('there are at least 100 refused cases', () => expect(cases.length).toBeGreaterThanOrEqual(100))

  for (const c of [...cases, ...tolerated.map((t) => ({ ...t, name: `tolerated: ${t.name}` }))]) {
    test(c.name, async () => {
      const headers = new Headers(c.headers)
      const token = c.token === undefined ? alice.token : c.token
      if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
      const response = await server.app.handle(
        new Request(`${BASE}${c.path}`, { method: c.method ?? 'GET', headers, body: c.body ?? null }),
      )
      const allowed = Array.isArray(c.expect) ? c.expect : [c.expect ?? 400]
      expect(allowed).toContain(response.status)
      expect(response.status).toBeLessThan(500)
      if (c.path.startsWith('/api/') && response.status >= 400) {
        const body = await json(response)
        expect(body.success).toBe(false)
        expect(typeof body.error).toBe('string')
        expect(typeof body.code).toBe('string')
        expect(JSON.stringify(body)).not.toMatch(/\/work\/|\/tmp\/|node_modules|at .*\.ts:\d+|SQLITE|sqlite_/i)
      }
    })
  }

  test('afterwards: healthy, nothing polluted, and no one’s data changed', async () => {
    expect((await server.call('GET', '/api/health')).status).toBe(200)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const now = (await json(await server.call('GET', `/api/files/${file.id}`, { token: alice.token }))).data
    expect(now).toMatchObject({ id: file.id, title: 'Alice private', fileSize: file.fileSize, sha256: file.sha256, views: 0 })
    const bytes = new Uint8Array(await (await server.call('GET', `/api/files/${file.id}/content`, { token: alice.token })).arrayBuffer())
    expect(bytes).toEqual(pdf)
    expect((await json(await server.call('GET', '/api/files', { token: mallory.token }))).data).toEqual([])
  })
})
