// Black-box contract tests: the real server over HTTP, asserting only what the README promises a client
// (its API section, the status and error codes, the decisions on the interface's gaps, settings and limits).
import { afterAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run, startServer } from '../../scripts/support/process'

const SECRET = 'blackbox-contract-secret-0123456789-abcdefghij'
const CAP = 1024 * 1024 // PDFSHARE_MAX_FILE_SIZE=1MB, "MB" = 1,048,576 bytes
const RATE = 250 // per token per minute; only the `rl` user ever comes near it
const AUTH_ERROR = { success: false, error: 'Invalid or missing API JWT token', code: 'unauthorized' }
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const dataDir = await mkdtemp(join(tmpdir(), 'pdfshare-blackbox-'))
const env = { PDFSHARE_JWT_SECRET: SECRET, PDFSHARE_MAX_FILE_SIZE: '1MB', PDFSHARE_RATE_LIMIT_API: String(RATE) }
async function cli(...args: string[]): Promise<string> {
  const r = await run([...args, '--data', dataDir], { env })
  if (r.code !== 0) throw new Error(`pdfshare ${args.join(' ')} failed: ${r.stderr}`)
  return r.stdout.trim()
}
const USERS = ['alice', 'bob', 'lister', 'quota', 'ghost', 'rl'] as const
const tok = {} as Record<(typeof USERS)[number], string>
for (const u of USERS) {
  await cli('user', 'add', u)
  tok[u] = await cli('token', 'issue', u)
}
await cli('user', 'quota', 'quota', '--max-files', '1')
const server = await startServer(['--data', dataDir], { env })
afterAll(async () => {
  await server.stop()
  await rm(dataDir, { recursive: true, force: true })
})

// ---------- helpers ----------
function makePdf(text = 'hello', size?: number): Buffer {
  const build = (pad: number) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`
    const objs = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]
    let out = `%PDF-1.4\n${pad >= 2 ? `%${'x'.repeat(pad - 2)}\n` : ''}`
    const offsets: number[] = []
    objs.forEach((o, i) => {
      offsets.push(out.length)
      out += `${i + 1} 0 obj\n${o}\nendobj\n`
    })
    const xref = out.length
    out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`
    out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')
    return `${out}trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  }
  let s = build(0)
  if (size !== undefined) {
    let pad = size - s.length
    while (s.length !== size) {
      s = build(pad)
      pad += size - s.length
    }
  }
  return Buffer.from(s, 'latin1')
}

type Part = { name: string; value: string } | { name: string; filename?: string; type?: string; data: Uint8Array | string }
const enc = new TextEncoder()
function multipart(parts: Part[]): { body: Buffer; type: string } {
  const boundary = `----bb${crypto.randomUUID()}`
  const chunks: Uint8Array[] = []
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`
    if ('data' in p) {
      if (p.filename !== undefined) head += `; filename="${p.filename}"`
      head += '\r\n'
      if (p.type) head += `Content-Type: ${p.type}\r\n`
    } else head += '\r\n'
    const content = 'data' in p ? p.data : p.value
    chunks.push(enc.encode(`${head}\r\n`), typeof content === 'string' ? enc.encode(content) : content, enc.encode('\r\n'))
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` }
}
const pdfPart = (data: Uint8Array = makePdf(), filename = 'report.pdf', type = 'application/pdf'): Part => ({
  name: 'file',
  filename,
  type,
  data,
})
const field = (name: string, value: string): Part => ({ name, value })

type Res = { status: number; headers: Headers; body: any; raw: Uint8Array }
async function api(
  method: string,
  path: string,
  o: { token?: string | null; json?: unknown; form?: Part[]; headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.token !== null) headers.authorization ??= `Bearer ${o.token ?? tok.alice}`
  let body: string | Uint8Array | undefined = o.body
  if (o.json !== undefined) {
    body = JSON.stringify(o.json)
    headers['content-type'] ??= 'application/json'
  }
  if (o.form) {
    const m = multipart(o.form)
    body = m.body
    headers['content-type'] ??= m.type
  }
  const r = await fetch(server.url + path, { method, headers, body: body as BodyInit | undefined })
  const raw = new Uint8Array(await r.arrayBuffer())
  const text = new TextDecoder().decode(raw)
  let parsed: any = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  expect(r.headers.get('x-request-id')).toBeTruthy() // every response carries X-Request-Id
  return { status: r.status, headers: r.headers, body: parsed, raw }
}
const upload = (form: Part[], token?: string) => api('POST', '/api/files/upload', { form, token })
const uploadOk = async (form: Part[] = [pdfPart()], token?: string) => {
  const r = await upload(form, token)
  expect(r.status).toBe(201)
  return r.body.data
}
function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, success: r.body?.success, code: r.body?.code }).toEqual({ status, success: false, code })
  expect(typeof r.body.error).toBe('string')
  expect(r.body.error.length).toBeGreaterThan(0)
}

/** Sends only the request head over a socket and returns the answer (proves it came before any body). */
function rawHead(head: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { port, hostname } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const sock = connect(Number(port), hostname)
    let buf = ''
    const timer = setTimeout(() => {
      sock.destroy()
      reject(new Error(`no answer without a body: ${buf}`))
    }, 5000)
    const attempt = (final: boolean) => {
      const i = buf.indexOf('\r\n\r\n')
      if (i < 0) return final && reject(new Error(`incomplete answer: ${buf}`))
      const [statusLine, ...lines] = buf.slice(0, i).split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      let body = buf.slice(i + 4)
      if (headers['content-length'] !== undefined && Buffer.byteLength(body, 'latin1') < Number(headers['content-length']) && !final) return
      if (headers['transfer-encoding'] === 'chunked') {
        if (!body.includes('0\r\n\r\n') && !final) return
        let out = ''
        for (let rest = body; ; ) {
          const n = parseInt(rest, 16)
          if (!n) break
          const start = rest.indexOf('\r\n') + 2
          out += rest.slice(start, start + n)
          rest = rest.slice(start + n + 2)
        }
        body = out
      }
      clearTimeout(timer)
      sock.destroy()
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body })
    }
    sock.on('data', (d) => {
      buf += d.toString('latin1')
      attempt(false)
    })
    sock.on('end', () => attempt(true))
    sock.on('error', () => attempt(true))
    sock.write(head)
  })
}

const b64url = (x: string | Buffer) => Buffer.from(x).toString('base64url')
const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString())
function signJwt(payload: object, alg = 'HS256', secret = SECRET) {
  const input = `${b64url(JSON.stringify({ alg, typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`
  const hash = { HS256: 'sha256', HS512: 'sha512' }[alg] ?? 'sha256'
  return `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`
}

// ---------- tests ----------
describe('unauthenticated routes, request ids, unknown routes', () => {
  test('GET /api/health is 200 without a token', async () => {
    const r = await api('GET', '/api/health', { token: null })
    expect(r.status).toBe(200)
    expect(r.body.success).toBe(true)
    expect(r.body.data.status).toBe('ok')
    expect(typeof r.body.data.version).toBe('string')
  })
  test('GET /api/openapi.json is an OpenAPI 3 document without a token', async () => {
    const r = await api('GET', '/api/openapi.json', { token: null })
    expect(r.status).toBe(200)
    expect(String(r.body.openapi)).toMatch(/^3\./)
  })
  test('unknown routes answer 404 not_found with X-Request-Id', async () => {
    expectError(await api('GET', '/api/no-such-route'), 404, 'not_found')
    expectError(await api('DELETE', '/api/files'), 404, 'not_found') // no such method+path in the table
    const outside = await api('GET', '/definitely/not/here', { token: null })
    expect(outside.status).toBe(404)
  })
  test('a well-formed X-Request-Id is echoed, a malformed one is replaced', async () => {
    const mine = 'abc.DEF_1:2-3'
    expect((await api('GET', '/api/health', { token: null, headers: { 'x-request-id': mine } })).headers.get('x-request-id')).toBe(mine)
    for (const bad of ['has space', 'x'.repeat(65)]) {
      const id = (await api('GET', '/api/health', { token: null, headers: { 'x-request-id': bad } })).headers.get('x-request-id')
      expect(id).toBeTruthy()
      expect(id).not.toBe(bad)
    }
  })
})

describe('authentication', () => {
  const bad = async (authorization: string | null, path = '/api/me') => {
    const r = await api('GET', path, authorization === null ? { token: null } : { headers: { authorization } })
    expect(r.status).toBe(401)
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer\b/)
    expect(r.body).toEqual(AUTH_ERROR)
  }
  test('missing, malformed, wrong-scheme and tampered tokens: 401 with the exact body', async () => {
    await bad(null)
    await bad(null, '/api/files/whatever')
    await bad('Bearer not-a-jwt')
    await bad(`Basic ${tok.alice}`)
    await bad(tok.alice)
    await bad(`Bearer ${tok.alice.slice(0, -3)}${tok.alice.endsWith('AAA') ? 'BBB' : 'AAA'}`)
  })
  test('the scheme word is case-insensitive', async () => {
    expect((await api('GET', '/api/me', { headers: { authorization: `bearer ${tok.alice}` } })).status).toBe(200)
  })
  test('self-signed tokens: valid copy accepted; alg none/HS512, expired, future nbf, unknown jti refused', async () => {
    const c = claims(tok.alice)
    const now = Math.floor(Date.now() / 1000)
    expect((await api('GET', '/api/me', { token: signJwt(c) })).status).toBe(200) // proves our signer matches
    await bad(`Bearer ${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(c))}.`)
    await bad(`Bearer ${signJwt(c, 'HS512')}`)
    await bad(`Bearer ${signJwt(c, 'HS256', 'another-secret-that-is-long-enough-123456')}`)
    await bad(`Bearer ${signJwt({ ...c, exp: now - 120 })}`)
    await bad(`Bearer ${signJwt({ ...c, nbf: now + 3600 })}`)
    await bad(`Bearer ${signJwt({ ...c, jti: 'no-such-token-id' })}`)
  })
  test('a revoked token and a removed user answer 401', async () => {
    const extra = await cli('token', 'issue', 'alice', '--label', 'to-revoke')
    expect((await api('GET', '/api/me', { token: extra })).status).toBe(200)
    await cli('token', 'revoke', extra)
    await bad(`Bearer ${extra}`)
    expect((await api('GET', '/api/me', { token: tok.ghost })).status).toBe(200)
    await cli('user', 'remove', 'ghost')
    await bad(`Bearer ${tok.ghost}`)
  })
  test('authentication comes before the Content-Type and before the body is read', async () => {
    const r = await api('POST', '/api/files/upload', { token: null, body: 'x', headers: { 'content-type': 'text/plain' } })
    expect(r.status).toBe(401)
    const raw = await rawHead(
      `POST /api/files/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 104857600\r\n\r\n`,
    )
    expect(raw.status).toBe(401)
    expect(raw.headers['x-request-id']).toBeTruthy()
    expect(JSON.parse(raw.body)).toEqual(AUTH_ERROR)
  })
})

describe('upload', () => {
  test('201 with every File field and the documented defaults', async () => {
    const pdf = makePdf('defaults')
    const r = await upload([pdfPart(pdf, 'report.pdf')])
    expect(r.status).toBe(201)
    expect(r.body.success).toBe(true)
    const f = r.body.data
    for (const k of [
      'id',
      'filename',
      'title',
      'desc',
      'description',
      'fileSize',
      'contentType',
      'allowDownload',
      'searchEngineVisible',
      'views',
      'shareUrl',
      'createdAt',
      'updatedAt',
    ])
      expect(f).toHaveProperty(k)
    expect(f).toMatchObject({
      filename: 'report.pdf',
      title: '',
      desc: '',
      description: '',
      fileSize: pdf.length,
      contentType: 'application/pdf',
      allowDownload: true,
      searchEngineVisible: false,
      views: 0,
    })
    expect(f.id).toMatch(/^[A-Za-z0-9._~-]{1,64}$/) // opaque, URL-safe, at most 64
    expect(f.shareUrl).toMatch(/^http:\/\/localhost:\d+\/s\/[A-Za-z0-9_-]{22,}$/)
    expect(f.createdAt).toMatch(ISO_MS)
    expect(f.updatedAt).toBe(f.createdAt)
    expect((await api('GET', `/api/files/${f.id}`)).body).toEqual({ success: true, data: f })
  })
  test('fields before or after the file part; unknown fields ignored; cannot set id/views', async () => {
    const f = await uploadOk([
      field('title', 'Before'),
      pdfPart(),
      field('desc', 'After'),
      field('foo', 'bar'),
      field('views', '7'),
      field('id', 'mine'),
    ])
    expect(f).toMatchObject({ title: 'Before', desc: 'After', description: 'After', views: 0 })
    expect(f.id).not.toBe('mine')
  })
  test('filename defaults to the basename of the part name and keeps UTF-8', async () => {
    expect((await uploadOk([pdfPart(makePdf(), 'some/dir/deep.pdf')])).filename).toBe('deep.pdf')
    expect((await uploadOk([pdfPart(makePdf(), 'Bericht-Ü.pdf')])).filename).toBe('Bericht-Ü.pdf')
    expect((await uploadOk([pdfPart(), field('filename', 'Shown name.pdf')])).filename).toBe('Shown name.pdf')
  })
  test('filename must not be empty nor contain / or \\', async () => {
    for (const name of ['', 'a/b.pdf', 'a\\b.pdf']) expectError(await upload([pdfPart(), field('filename', name)]), 400, 'invalid_request')
  })
  test('boolean forms: true/false/1/0/yes/no/on/off, any case, trimmed', async () => {
    const forms: [string, boolean][] = [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['yes', true],
      ['no', false],
      ['on', true],
      ['off', false],
      [' YES ', true],
      ['Off', false],
      ['TRUE', true],
    ]
    for (const [v, want] of forms) {
      const f = await uploadOk([pdfPart(), field('allowDownload', v), field('searchEngineVisible', v)])
      expect([v, f.allowDownload, f.searchEngineVisible]).toEqual([v, want, want])
    }
  })
  test('bad booleans (empty string included) are 400 naming the field', async () => {
    for (const v of ['', 'maybe', '2', 'y']) {
      const r = await upload([pdfPart(), field('searchEngineVisible', v)])
      expectError(r, 400, 'invalid_request')
      expect(r.body.error).toContain('searchEngineVisible')
    }
  })
  test('text limits in code points after NFC: max accepted, max+1 refused', async () => {
    const emoji = '😀',
      eAcute = 'e\u0301' // 1 code point; 2 code points that NFC makes 1
    const limits = { title: 160, desc: 500, description: 500 } as Record<string, number>
    for (const [name, max] of Object.entries(limits)) {
      for (const unit of [emoji, eAcute, 'a']) {
        const ok = await upload([pdfPart(), field(name, unit.repeat(max))])
        expect([name, unit, ok.status]).toEqual([name, unit, 201])
        expect(ok.body.data[name].normalize('NFC')).toBe(unit.repeat(max).normalize('NFC'))
        expectError(await upload([pdfPart(), field(name, unit.repeat(max + 1))]), 400, 'invalid_request')
      }
    }
    const fn = (n: number) => `${'é'.repeat(n - 4)}.pdf`
    expect((await uploadOk([pdfPart(), field('filename', fn(255))])).filename).toBe(fn(255))
    expectError(await upload([pdfPart(), field('filename', fn(256))]), 400, 'invalid_request')
  })
  test('control characters refused, except TAB and LF in desc; CRLF stored as LF', async () => {
    expectError(await upload([pdfPart(), field('title', 'a\u0007b')]), 400, 'invalid_request')
    expectError(await upload([pdfPart(), field('title', 'a\tb')]), 400, 'invalid_request')
    expectError(await upload([pdfPart(), field('filename', 'a\u007f.pdf')]), 400, 'invalid_request')
    expectError(await upload([pdfPart(), field('desc', 'a\u0000b')]), 400, 'invalid_request')
    expect((await uploadOk([pdfPart(), field('desc', 'a\tb\nc\r\nd')])).desc).toBe('a\tb\nc\nd')
  })
  test('desc and description alias each other; a conflict is 400', async () => {
    expect(await uploadOk([pdfPart(), field('description', 'Via description')])).toMatchObject({
      desc: 'Via description',
      description: 'Via description',
    })
    expect(await uploadOk([pdfPart(), field('desc', 'Same'), field('description', 'Same')])).toMatchObject({
      desc: 'Same',
      description: 'Same',
    })
    expectError(await upload([pdfPart(), field('desc', 'One'), field('description', 'Two')]), 400, 'invalid_request')
  })
  test('each PDF check failing alone is 415 not_pdf naming the check and what was received', async () => {
    const ext = await upload([pdfPart(makePdf(), 'report.txt')])
    expectError(ext, 415, 'not_pdf')
    expect(ext.body.error).toContain('report.txt')
    const type = await upload([pdfPart(makePdf(), 'report.pdf', 'text/plain')])
    expectError(type, 415, 'not_pdf')
    expect(type.body.error).toContain('text/plain')
    expectError(await upload([pdfPart(enc.encode('%PDX-1.4 not a pdf'), 'report.pdf')]), 415, 'not_pdf')
    expectError(await upload([pdfPart(new Uint8Array(0), 'report.pdf')]), 415, 'not_pdf')
    // the accepted variants
    await uploadOk([pdfPart(makePdf(), 'REPORT.PDF')])
    await uploadOk([pdfPart(makePdf(), 'x.pdf', 'application/x-pdf')])
  })
  test('size cap: exactly the cap accepted, one byte more is 413 file_too_large', async () => {
    expect((await uploadOk([pdfPart(makePdf('cap', CAP))])).fileSize).toBe(CAP)
    expectError(await upload([pdfPart(makePdf('cap', CAP + 1))]), 413, 'file_too_large')
  })
  test('a declared Content-Length that cannot fit is 413 before the body is read', async () => {
    const r = await rawHead(
      `POST /api/files/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok.alice}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${10 * CAP}\r\n\r\n`,
    )
    expect(r.status).toBe(413)
    expect(r.headers['x-request-id']).toBeTruthy()
    expect(JSON.parse(r.body)).toMatchObject({ success: false, code: 'file_too_large' })
  })
  test('multipart shape: missing, duplicate, nameless or misplaced file parts, repeated fields, malformed bodies', async () => {
    const bad = (form: Part[]) => upload(form).then((r) => expectError(r, 400, 'invalid_request'))
    await bad([field('title', 'no file')])
    await bad([pdfPart(), pdfPart()])
    await bad([{ name: 'file', data: makePdf() }]) // a file field without a filename
    await bad([{ name: 'document', filename: 'a.pdf', type: 'application/pdf', data: makePdf() }])
    await bad([pdfPart(), field('title', 'a'), field('title', 'b')])
    const truncated =
      '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n'
    for (const [body, type] of [
      [truncated, 'multipart/form-data; boundary=zz'],
      ['not multipart at all', 'multipart/form-data; boundary=zz'],
      [truncated, 'multipart/form-data'],
    ]) {
      expectError(await api('POST', '/api/files/upload', { body, headers: { 'content-type': type! } }), 400, 'invalid_request')
    }
  })
  test('a request Content-Type other than multipart is 415 unsupported_media_type', async () => {
    expectError(await api('POST', '/api/files/upload', { json: { title: 'x' } }), 415, 'unsupported_media_type')
    expectError(
      await api('POST', '/api/files/upload', { body: makePdf(), headers: { 'content-type': 'application/pdf' } }),
      415,
      'unsupported_media_type',
    )
  })
})

describe('get and update', () => {
  let f: any
  const get = async (id = f.id) => (await api('GET', `/api/files/${id}`)).body.data
  test('setup', async () => {
    f = await uploadOk([pdfPart(makePdf('original'), 'orig.pdf'), field('title', 'T'), field('desc', 'D'), field('allowDownload', 'no')])
  })
  test('PUT JSON changes only the sent fields and answers 200 + File', async () => {
    const r = await api('PUT', `/api/files/${f.id}`, { json: { title: 'New title' } })
    expect(r.status).toBe(200)
    expect(r.body.success).toBe(true)
    expect(r.body.data).toMatchObject({
      id: f.id,
      title: 'New title',
      desc: 'D',
      description: 'D',
      filename: 'orig.pdf',
      allowDownload: false,
      searchEngineVisible: false,
      fileSize: f.fileSize,
      shareUrl: f.shareUrl,
      createdAt: f.createdAt,
    })
    expect(await get()).toEqual(r.body.data)
  })
  test('PUT JSON booleans: real booleans, 0/1 numbers, string forms; others 400 naming the field', async () => {
    const cases: [unknown, boolean][] = [
      [true, true],
      [false, false],
      [1, true],
      [0, false],
      ['yes', true],
      [' OFF ', false],
    ]
    for (const [v, want] of cases)
      expect((await api('PUT', `/api/files/${f.id}`, { json: { searchEngineVisible: v } })).body.data.searchEngineVisible).toBe(want)
    for (const v of [2, '', 'maybe', null, []]) {
      const r = await api('PUT', `/api/files/${f.id}`, { json: { allowDownload: v } })
      expectError(r, 400, 'invalid_request')
      expect(r.body.error).toContain('allowDownload')
    }
  })
  test('description and desc alias in JSON; conflict is 400; filename settable but not clearable', async () => {
    expect((await api('PUT', `/api/files/${f.id}`, { json: { description: 'Via JSON' } })).body.data).toMatchObject({
      desc: 'Via JSON',
      description: 'Via JSON',
    })
    expectError(await api('PUT', `/api/files/${f.id}`, { json: { desc: 'a', description: 'b' } }), 400, 'invalid_request')
    expect((await api('PUT', `/api/files/${f.id}`, { json: { filename: 'renamed.pdf' } })).body.data.filename).toBe('renamed.pdf')
    expectError(await api('PUT', `/api/files/${f.id}`, { json: { filename: '' } }), 400, 'invalid_request')
    expectError(await api('PUT', `/api/files/${f.id}`, { json: { title: 'x'.repeat(161) } }), 400, 'invalid_request')
    expect((await api('PUT', `/api/files/${f.id}`, { json: { title: '😀'.repeat(160) } })).status).toBe(200)
    expect((await get()).filename).toBe('renamed.pdf')
  })
  test('"" clears title and desc (JSON and multipart); JSON null clears too; cleared reads back as ""', async () => {
    let r = await api('PUT', `/api/files/${f.id}`, { json: { title: '', desc: '' } })
    expect(r.body.data).toMatchObject({ title: '', desc: '', description: '' })
    await api('PUT', `/api/files/${f.id}`, { json: { title: 'again', desc: 'again' } })
    r = await api('PUT', `/api/files/${f.id}`, { json: { title: null, description: null } })
    expect(r.body.data).toMatchObject({ title: '', desc: '', description: '' })
    await api('PUT', `/api/files/${f.id}`, { json: { title: 'again', desc: 'again' } })
    r = await api('PUT', `/api/files/${f.id}`, { form: [field('title', ''), field('desc', '')] })
    expect(r.status).toBe(200)
    expect(await get()).toMatchObject({ title: '', desc: '', description: '' })
  })
  test('unknown fields ignored; id, views, fileSize, shareUrl cannot be set', async () => {
    const before = await get()
    const r = await api('PUT', `/api/files/${f.id}`, {
      json: { id: 'x', views: 9, fileSize: 1, shareUrl: 'http://evil/s/x', nonsense: true },
    })
    expect(r.status).toBe(200)
    expect(r.body.data).toMatchObject({ id: before.id, views: 0, fileSize: before.fileSize, shareUrl: before.shareUrl })
  })
  test('updatedAt moves forward on every successful PUT, also one that changes nothing', async () => {
    let prev = (await get()).updatedAt
    for (let i = 0; i < 3; i++) {
      const r = await api('PUT', `/api/files/${f.id}`, { json: {} })
      expect(r.status).toBe(200)
      expect(r.body.data.updatedAt).toMatch(ISO_MS)
      expect(Date.parse(r.body.data.updatedAt)).toBeGreaterThan(Date.parse(prev))
      expect(r.body.data.createdAt).toBe(f.createdAt)
      prev = r.body.data.updatedAt
    }
  })
  test('PUT with another Content-Type is 415; malformed JSON is 400; JSON above 64 KiB is 413 body_too_large', async () => {
    expectError(
      await api('PUT', `/api/files/${f.id}`, { body: 'title=x', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    )
    expectError(
      await api('PUT', `/api/files/${f.id}`, { body: '{"title":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
    )
    expectError(await api('PUT', `/api/files/${f.id}`, { json: { title: 'x', pad: 'p'.repeat(70 * 1024) } }), 413, 'body_too_large')
  })
  test('multipart replacement keeps id, shareUrl, filename, views, createdAt; changes fileSize, updatedAt, bytes', async () => {
    const before = await get()
    const pdf = makePdf('replacement with a longer text so the size differs')
    const r = await api('PUT', `/api/files/${f.id}`, { form: [pdfPart(pdf, 'other-name.pdf'), field('desc', 'Corrected')] })
    expect(r.status).toBe(200)
    const after = r.body.data
    expect(after).toMatchObject({
      id: before.id,
      shareUrl: before.shareUrl,
      filename: before.filename,
      views: before.views,
      createdAt: before.createdAt,
      desc: 'Corrected',
      title: before.title,
    })
    expect(after.fileSize).toBe(pdf.length)
    expect(after.fileSize).not.toBe(before.fileSize)
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt))
    expect(Buffer.from((await api('GET', `/api/files/${f.id}/content`)).raw).equals(Buffer.from(pdf))).toBe(true)
  })
  test('a refused replacement changes nothing, metadata and bytes included', async () => {
    const before = await get()
    const bytes = (await api('GET', `/api/files/${f.id}/content`)).raw
    const attempts: [Part[], number, string][] = [
      [[field('title', 'Should not stick'), pdfPart(enc.encode('GIF89a'))], 415, 'not_pdf'],
      [[field('title', 'Should not stick'), pdfPart(makePdf(), 'x.doc')], 415, 'not_pdf'],
      [[field('title', 'Should not stick'), pdfPart(makePdf('big', CAP + 1))], 413, 'file_too_large'],
      [[field('title', 'Should not stick'), pdfPart(makePdf('late')), field('allowDownload', 'maybe')], 400, 'invalid_request'],
      [[pdfPart(makePdf('late')), field('title', 't'.repeat(161))], 400, 'invalid_request'],
      [[pdfPart(makePdf('two')), pdfPart(makePdf('parts'))], 400, 'invalid_request'],
    ]
    for (const [form, status, code] of attempts) expectError(await api('PUT', `/api/files/${f.id}`, { form }), status, code)
    expect(await get()).toEqual(before)
    expect(Buffer.from((await api('GET', `/api/files/${f.id}/content`)).raw).equals(Buffer.from(bytes))).toBe(true)
  })
})

describe('ownership isolation and unknown ids', () => {
  test("another user's file answers exactly like an unknown or malformed id", async () => {
    const f = await uploadOk([pdfPart(), field('title', 'alice only')])
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA'
    const calls: [string, string, Parameters<typeof api>[2]][] = [
      ['GET', '', {}],
      ['PUT', '', { json: { title: 'pwned' } }],
      ['PUT', '', { form: [pdfPart(), field('title', 'pwned')] }],
      ['GET', '/content', {}],
      ['DELETE', '', {}],
    ]
    for (const [method, suffix, opts] of calls) {
      const foreign = await api(method, `/api/files/${f.id}${suffix}`, { ...opts, token: tok.bob })
      const missing = await api(method, `/api/files/${unknown}${suffix}`, { ...opts, token: tok.bob })
      const malformed = await api(method, `/api/files/${'%21'.repeat(3)}${'z'.repeat(80)}${suffix}`, { ...opts, token: tok.bob })
      expectError(foreign, 404, 'not_found')
      expect(foreign.body).toEqual(missing.body)
      expect(malformed.body).toEqual(missing.body)
    }
    expect((await api('GET', '/api/files', { token: tok.bob })).body.data.map((x: any) => x.id)).not.toContain(f.id)
    expect((await api('GET', `/api/files/${f.id}`)).body.data).toMatchObject({ title: 'alice only' })
  })
  test("a PUT on another user's file answers 404 before reading the body", async () => {
    const f = await uploadOk()
    const r = await rawHead(
      `PUT /api/files/${f.id} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok.bob}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    )
    expect(r.status).toBe(404)
    expect(r.headers['x-request-id']).toBeTruthy()
    expect(JSON.parse(r.body)).toMatchObject({ success: false, code: 'not_found' })
  })
})

describe('listing', () => {
  const list = (q = '') => api('GET', `/api/files${q}`, { token: tok.lister })
  const ids: string[] = []
  test('newest first, default limit 20, cursor paging stable under inserts', async () => {
    for (let i = 0; i < 23; i++) ids.unshift((await uploadOk([pdfPart(makePdf(`n${i}`), `n${i}.pdf`)], tok.lister)).id)
    const first = await list()
    expect(first.status).toBe(200)
    expect(first.body.success).toBe(true)
    expect(first.body.data.map((f: any) => f.id)).toEqual(ids.slice(0, 20))
    expect(typeof first.body.nextCursor).toBe('string')
    const inserted = await uploadOk([pdfPart()], tok.lister) // must not shift or repeat later pages
    const second = await list(`?cursor=${encodeURIComponent(first.body.nextCursor)}`)
    expect(second.body.data.map((f: any) => f.id)).toEqual(ids.slice(20))
    expect(second.body.nextCursor ?? null).toBeNull()
    ids.unshift(inserted.id)
  })
  test('?limit pages through everything exactly once', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: Res = await list(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(7)
      seen.push(...page.body.data.map((f: any) => f.id))
      cursor = page.body.nextCursor ?? null
    } while (cursor)
    expect(seen).toEqual(ids)
    expect((await list('?limit=100')).body.data.length).toBe(ids.length)
    expect((await list('?limit=1')).body.data.map((f: any) => f.id)).toEqual([ids[0]])
  })
  test('bad limit or cursor is 400 invalid_request', async () => {
    for (const q of ['?limit=0', '?limit=101', '?limit=abc', '?limit=-1', '?cursor=%%%garbage', '?cursor=bm90LWEtY3Vyc29y'])
      expectError(await list(q), 400, 'invalid_request')
  })
  test('/api/me reports the user, usage and limits', async () => {
    const r = await api('GET', '/api/me', { token: tok.lister })
    expect(r.status).toBe(200)
    const all = (await list('?limit=100')).body.data
    expect(r.body.data).toMatchObject({
      name: 'lister',
      usage: { files: all.length, bytes: all.reduce((s: number, f: any) => s + f.fileSize, 0) },
    })
    expect(typeof r.body.data.id).toBe('string')
    expect(r.body.data).toHaveProperty('limits')
  })
})

describe('content download and Range', () => {
  test('200 with the bytes, application/pdf, attachment with filename*', async () => {
    const pdf = makePdf('download me')
    const f = await uploadOk([pdfPart(pdf), field('filename', 'résumé.pdf')])
    const r = await api('GET', `/api/files/${f.id}/content`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/^application\/pdf/)
    expect(r.headers.get('content-disposition')).toMatch(/^attachment/)
    expect(r.headers.get('content-disposition')).toMatch(/filename\*=utf-8''r%C3%A9sum%C3%A9\.pdf/i)
    expect(Buffer.from(r.raw).equals(Buffer.from(pdf))).toBe(true)
    const part = await api('GET', `/api/files/${f.id}/content`, { headers: { range: 'bytes=0-4' } })
    expect(part.status).toBe(206)
    expect(new TextDecoder().decode(part.raw)).toBe('%PDF-')
    expect(part.headers.get('content-range')).toBe(`bytes 0-4/${pdf.length}`)
    const tail = await api('GET', `/api/files/${f.id}/content`, { headers: { range: 'bytes=-6' } })
    expect(tail.status).toBe(206)
    expect(new TextDecoder().decode(tail.raw)).toBe('%%EOF\n')
    expectError(
      await api('GET', `/api/files/${f.id}/content`, { headers: { range: `bytes=${pdf.length}-${pdf.length + 10}` } }),
      416,
      'invalid_request',
    )
  })
})

describe('delete', () => {
  test('200 with {id}; then GET, content, PUT and DELETE answer 404', async () => {
    const f = await uploadOk()
    const r = await api('DELETE', `/api/files/${f.id}`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ success: true, data: { id: f.id } })
    for (const [m, s, o] of [
      ['GET', '', {}],
      ['GET', '/content', {}],
      ['PUT', '', { json: { title: 'x' } }],
      ['DELETE', '', {}],
    ] as const) {
      expectError(await api(m, `/api/files/${f.id}${s}`, o), 404, 'not_found')
    }
  })
})

describe('plan limits and rate limits', () => {
  test('over the file-count limit is 403 quota_exceeded; a replacement that adds no file is allowed', async () => {
    const f = await uploadOk([pdfPart()], tok.quota)
    expectError(await upload([pdfPart()], tok.quota), 403, 'quota_exceeded')
    expect((await api('PUT', `/api/files/${f.id}`, { token: tok.quota, form: [pdfPart(makePdf('v2'))] })).status).toBe(200)
  })
  test('over the per-token limit is 429 rate_limited with Retry-After; other tokens unaffected', async () => {
    let hit: Res | undefined
    for (let i = 0; i < 2 * RATE + 2 && !hit; i++) {
      const r = await api('GET', '/api/me', { token: tok.rl })
      if (r.status === 429) hit = r
      else expect(r.status).toBe(200)
    }
    expect(hit).toBeDefined()
    expectError(hit!, 429, 'rate_limited')
    expect(Number(hit!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await api('GET', '/api/me', { token: tok.bob })).status).toBe(200)
  })
})
