import { afterAll, describe, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { CLAMD, type Clamd, startClamd } from '../../scripts/support/clamd'
import { form, json, startTestApp, type TestServer, tempFilesOf } from '../support/harness'
import { skipWithout } from '../support/host-tools'
import { uploadPdf } from '../support/uploads'

// Virus scanning with a real clamd (Debian's clamav-daemon), started here with a database of one signature this
// test writes: the PDF it matches is refused everywhere a PDF arrives, nothing of it stored; a clean one passes;
// with clamd gone, uploads are refused (503) unless PDFSHARE_CLAMD_FAIL_OPEN lets an owner's own through.
const skip = skipWithout([CLAMD], 'apt-get install -y --no-install-recommends clamav-daemon')
const METRICS = 'metrics-token-0123456789abcdef'

const infectedPdf = makePdf({ text: () => 'This PDF carries the test signature' })
const cleanPdf = makePdf({ text: () => 'A clean PDF' })

let clamd: Clamd | undefined
afterAll(async () => {
  await clamd?.stop()
  clamd?.remove()
})

describe.skipIf(skip)('clamd scans every received PDF', async () => {
  clamd = await startClamd(infectedPdf)
  const server = await startTestApp({ PDFSHARE_CLAMD: clamd.setting, PDFSHARE_METRICS_TOKEN: METRICS })
  const openServer = await startTestApp({ PDFSHARE_CLAMD: clamd.setting, PDFSHARE_CLAMD_FAIL_OPEN: 'true' }, { sameInstallAs: server })
  const alice = await server.user('alice')

  const upload = (on: TestServer, bytes: Uint8Array, path = '/api/files/upload', method = 'POST') =>
    on.call(method, path, { token: alice.token, body: form({ bytes, name: 'statement.pdf' }) })
  const storedFiles = async () => (await json(await server.call('GET', '/api/files', { token: alice.token }))).data
  const blobCount = async () => (await Array.fromAsync(server.ctx.blobs.keys())).length
  const scans = async () => {
    const text = await (await server.callInProcess('GET', '/metrics', { token: METRICS })).text()
    return Object.fromEntries(
      ['clean', 'infected', 'failed'].map((outcome) => [
        outcome,
        Number(new RegExp(`^pdfshare_scans_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0),
      ]),
    )
  }

  test('a PDF the signature matches is refused with 422 infected, naming it; nothing is stored; the audit log has it', async () => {
    const blobs = await blobCount()
    const before = await scans()
    const response = await upload(server, infectedPdf)
    expect(response.status).toBe(422)
    expect(await json(response)).toEqual({
      success: false,
      code: 'infected',
      error: `The PDF was refused: the virus scanner found ${clamd!.found} in it; nothing was stored`,
    })
    expect(await storedFiles()).toEqual([])
    expect(await blobCount()).toBe(blobs)
    expect(tempFilesOf(server)).toEqual([])
    const audit = (await json(await server.call('GET', '/api/audit?action=upload.infected', { token: alice.token }))).data
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({
      action: 'upload.infected',
      user: { id: alice.id, name: 'alice' },
      actor: { id: alice.id, name: 'alice', via: 'api' },
      detail: { signature: clamd!.found, filename: 'statement.pdf', size: infectedPdf.length },
    })
    // In process only: the balancer's instances count their own scans.
    if (!server.instances) expect(await scans()).toEqual({ ...before, infected: before.infected! + 1 })
  })

  test('a clean PDF passes, and so does its replacement; an infected replacement is refused and the file keeps its PDF', async () => {
    const file = await uploadPdf(server, alice, { bytes: cleanPdf })
    expect(file.sha256).toBe(new Bun.CryptoHasher('sha256').update(cleanPdf).digest('hex'))
    const refused = await upload(server, infectedPdf, `/api/files/${file.id}`, 'PUT')
    expect(refused.status).toBe(422)
    expect((await json(refused)).code).toBe('infected')
    const now = (await json(await server.call('GET', `/api/files/${file.id}`, { token: alice.token }))).data
    expect(now.sha256).toBe(file.sha256)
    const versions = (await json(await server.call('GET', `/api/files/${file.id}/versions`, { token: alice.token }))).data
    expect(versions).toHaveLength(1)
    const replaced = await upload(server, makePdf({ text: () => 'Clean, second edition' }), `/api/files/${file.id}`, 'PUT')
    expect(replaced.status).toBe(200)
    expect(tempFilesOf(server)).toEqual([])
  })

  /** A file request of alice's, and a stranger's upload to it (no token: the sender's side, /u/<slug>/files). */
  const newRequest = async () => {
    const response = await server.call('POST', '/api/requests', {
      token: alice.token,
      body: JSON.stringify({ title: 'Statements' }),
      headers: { 'content-type': 'application/json' },
    })
    const request = (await json(response)).data
    return { id: request.id as string, slug: (request.url as string).split('/u/')[1]! }
  }
  const send = (on: TestServer, slug: string, bytes: Uint8Array) =>
    on.call('POST', `/u/${slug}/files`, { body: form({ bytes, name: 'statement.pdf' }) })
  const received = async (requestId: string) =>
    (await json(await server.call('GET', `/api/requests/${requestId}/files`, { token: alice.token }))).data

  test('a file request’s upload: a PDF the signature matches → 422 infected, nothing stored; a clean one passes', async () => {
    const request = await newRequest()
    const refused = await send(server, request.slug, infectedPdf)
    expect(refused.status).toBe(422)
    expect((await json(refused)).code).toBe('infected')
    expect(await received(request.id)).toEqual([])
    expect((await send(server, request.slug, cleanPdf)).status).toBe(201)
    expect(await received(request.id)).toHaveLength(1)
  })

  test('with clamd stopped: 503 scan_unavailable, nothing stored; PDFSHARE_CLAMD_FAIL_OPEN stores an owner’s own upload', async () => {
    await clamd!.stop()
    const count = (await storedFiles()).length
    const refused = await upload(server, cleanPdf)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('30')
    expect((await json(refused)).code).toBe('scan_unavailable')
    expect((await storedFiles()).length).toBe(count)
    expect(tempFilesOf(server)).toEqual([])
    const stored = await upload(openServer, cleanPdf)
    expect(stored.status).toBe(201)
    expect(server.log.lines.filter((line) => line.includes('could not scan an upload')).at(-1)).toContain('refused with 503')
    expect(openServer.log.lines.filter((line) => line.includes('could not scan an upload')).at(-1)).toContain('stored unscanned')
    // A file request never takes an unscanned PDF, whatever PDFSHARE_CLAMD_FAIL_OPEN says.
    const request = await newRequest()
    const closed = await send(openServer, request.slug, cleanPdf)
    expect(closed.status).toBe(503)
    expect((await json(closed)).code).toBe('scan_unavailable')
    expect(await received(request.id)).toEqual([])
  })
})
