import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { sharedCeph } from '../../scripts/support/ceph'
import { makePdf } from '../../scripts/support/pdf'
import { createS3BlobStore } from '../../src/storage/s3-blob-store'
import { configuredStorage } from '../../src/data-dir/blobs'
import { layoutOf } from '../../src/data-dir/layout'
import { StoreUnavailable } from '../../src/storage/s3-requests'
import { form, json, startTestApp } from '../support/harness'
import { s3SettingsOf } from '../support/s3'
import { uploadPdf } from '../support/uploads'

// A bucket that stops answering, for real: a loopback TCP endpoint that accepts connections and never answers, and
// a proxy in front of the Ceph gateway that can turn into one, or stop passing bytes on in the middle of a body.
// Nothing here mocks the S3 client: the store's own requests meet these sockets.
const root = mkdtempSync(join(tmpdir(), 'pdfshare-s3-timeouts-'))
const sockets = new Set<Socket>()
const servers: Server[] = []
afterAll(() => {
  for (const socket of sockets) socket.destroy()
  for (const server of servers) server.close()
  rmSync(root, { recursive: true, force: true })
})

async function listen(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    onSocket(socket)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

/** Accepts, reads what it is sent, never answers. */
const silentEndpoint = () => listen((socket) => socket.on('data', () => {}))

type ProxyMode = 'forward' | 'silent' | { stallAfter: number }

/**
 * A TCP proxy to the gateway, whose mode applies at once to every connection, kept-alive ones included: `forward`
 * passes everything on; `silent` passes nothing either way (new connections are accepted and never answered);
 * `stallAfter`: passes the next N bytes a client sends, then stops reading from it (its socket's buffers fill
 * and the sender is stuck) and passes nothing back.
 */
async function proxyTo(target: URL) {
  let mode: ProxyMode = 'forward'
  let epoch = 0
  const port = await listen((client) => {
    const upstream = createConnection(Number(target.port), target.hostname)
    sockets.add(upstream)
    upstream.on('error', () => client.destroy())
    upstream.on('close', () => client.destroy())
    client.on('error', () => upstream.destroy())
    client.on('close', () => upstream.destroy())
    let seen = epoch
    let passed = 0
    client.on('data', (chunk: Buffer) => {
      if (seen !== epoch) [seen, passed] = [epoch, 0]
      if (mode === 'forward') return void upstream.write(chunk)
      if (mode === 'silent') return
      const room = mode.stallAfter - passed
      if (room > 0) upstream.write(chunk.subarray(0, room))
      passed += chunk.length
      if (passed >= mode.stallAfter) client.pause()
    })
    upstream.on('data', (chunk: Buffer) => {
      if (mode === 'forward') client.write(chunk)
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    set: (next: ProxyMode) => {
      mode = next
      epoch++
      if (next === 'forward') for (const socket of sockets) socket.resume()
    },
  }
}

const TIMEOUTS = { connectMs: 500, idleMs: 800 }
/** A silent endpoint holds a request without time limits for ever; with them, it ends in about a second. */
const NO_LIMIT_BOUND_S = 30
const bucketOf = async () => {
  const gateway = await sharedCeph()
  const bucket = `pdfshare-timeouts-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
  await gateway.createBucket(bucket)
  // The test gateway takes about 2 s to answer the first request of a new bucket (measured: 1.97 s, then 50 ms),
  // longer than the 1 s limits these tests start servers with: asked once here, as any bucket in use has been.
  const client = new Bun.S3Client({
    endpoint: gateway.endpoint,
    bucket,
    accessKeyId: gateway.accessKeyId,
    secretAccessKey: gateway.secretAccessKey,
    virtualHostedStyle: false,
  })
  await client.exists('warm-up')
  return { gateway, bucket }
}

test('every request to an endpoint that accepts and never answers fails within the time limits, and health says degraded', async () => {
  const port = await silentEndpoint()
  const tempDir = join(root, 'silent', 'tmp')
  mkdirSync(tempDir, { recursive: true })
  const client = new Bun.S3Client({ endpoint: `http://127.0.0.1:${port}`, bucket: 'b', accessKeyId: 'k', secretAccessKey: 's' })
  const store = createS3BlobStore({ client, tempDir, timeouts: TIMEOUTS })
  expect(store.health?.()).toBe('ok')
  const upload = join(tempDir, 'upload.part')
  writeFileSync(upload, makePdf({ paddingBytes: 100_000 }))
  const key = 'abcdefgh12345678'
  const attempts: [string, () => Promise<unknown>][] = [
    ['put', () => store.put(key, { file: upload })],
    ['stat', () => store.stat(key)],
    ['read', () => new Response(store.read(key)).arrayBuffer()],
    ['delete', () => store.delete(key)],
    ['localFile', () => store.localFile(key)],
    ['keys', () => Array.fromAsync(store.keys())],
  ]
  for (const [name, attempt] of attempts) {
    const began = performance.now()
    const failure = await attempt().then(
      () => undefined,
      (error: unknown) => error,
    )
    const seconds = (performance.now() - began) / 1000
    expect(failure, name).toBeInstanceOf(StoreUnavailable)
    // Ended by the time limits, not by the endpoint (which never answers): a bound far above the limits, so that a
    // loaded machine's slowness does not count, and far below the forever it would be without them.
    expect(seconds, name).toBeLessThan(NO_LIMIT_BOUND_S)
  }
  expect(store.health?.()).toBe('degraded')
  expect(readdirSync(tempDir)).toEqual(['upload.part']) // a put that failed leaves its file to its owner; nothing else
})

test('the link cards in the bucket and the install id kept there fail within the time limits too (a start never hangs)', async () => {
  const port = await silentEndpoint()
  const { idHolder, sharedPreviews } = configuredStorage(layoutOf(join(root, 'silent-start')), {
    storage: 's3',
    s3Endpoint: `http://127.0.0.1:${port}`,
    s3Bucket: 'b',
    s3Region: 'us-east-1',
    s3AccessKeyId: 'k',
    s3SecretAccessKey: 's',
    s3PathStyle: true,
    s3ConnectTimeout: 1,
    s3IdleTimeout: 1,
  })
  const attempts: [string, () => Promise<unknown>][] = [
    ['id read', () => idHolder.read()],
    ['id write', () => idHolder.write('abc')],
    ['card get', () => sharedPreviews!.get('k.png')],
    ['card put', () => sharedPreviews!.put('k.png', new Uint8Array(10), 'image/png')],
    ['card delete', () => sharedPreviews!.delete('k.png')],
  ]
  for (const [name, attempt] of attempts) {
    const began = performance.now()
    const failure = await attempt().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure, name).toBeInstanceOf(StoreUnavailable)
    expect((performance.now() - began) / 1000, name).toBeLessThan(NO_LIMIT_BOUND_S)
  }
})

test('through the app: an upload to a bucket that stops answering is a 503 in bounded time, nothing half-written; reads too; health degraded, then ok again', async () => {
  const { gateway, bucket } = await bucketOf()
  const proxy = await proxyTo(new URL(gateway.endpoint))
  const server = await startTestApp({
    PDFSHARE_STORAGE: 's3',
    ...s3SettingsOf(gateway, bucket),
    PDFSHARE_S3_ENDPOINT: proxy.url,
    PDFSHARE_S3_CONNECT_TIMEOUT: '1',
    PDFSHARE_S3_IDLE_TIMEOUT: '1',
  })
  const owner = await server.user()
  const { files } = server.ctx.db.tables
  const rows = async () => (await server.ctx.db.orm.select({ id: files.id }).from(files).where(eq(files.ownerId, owner.id))).length
  const objects = () => Array.fromAsync(server.ctx.blobs.keys())
  const health = async () => (await json(await server.call('GET', '/api/health'))).data

  const stored = await uploadPdf(server, owner, makePdf({ text: () => 'before' }))
  expect(await health()).toMatchObject({ status: 'ok', store: 'ok' })
  const before = await objects()

  for (const [mode, bytes] of [
    ['silent', makePdf({ text: () => 'to a silent bucket', paddingBytes: 200_000 })],
    [{ stallAfter: 64 * 1024 }, makePdf({ text: () => 'stalls mid-body', paddingBytes: 6_000_000 })],
  ] as const) {
    proxy.set(mode)
    const began = performance.now()
    const refused = await server.call('POST', '/api/files/upload', { token: owner.token, body: form({ bytes }) })
    const seconds = (performance.now() - began) / 1000
    expect(refused.status).toBe(503)
    const body = await json(refused)
    expect(body.code).toBe('server_busy')
    expect(body.error).toContain('file store')
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(seconds).toBeLessThan(8)
    expect(await rows()).toBe(1) // no row
    expect(readdirSync(join(server.dataDir, 'tmp'))).toEqual([]) // no temp file
    expect((await health()).store).toBe('degraded')
    proxy.set('forward')
    expect((await objects()).sort()).toEqual([...before].sort()) // and no object in the bucket, not even a part
  }

  // Reads fail the same way: the PDF's first download (a local copy is made from the bucket) is a 503.
  proxy.set('silent')
  const read = await server.call('GET', `/api/files/${stored.id}/content`, { token: owner.token })
  expect(read.status).toBe(503)
  proxy.set('forward')
  const again = await server.call('GET', `/api/files/${stored.id}/content`, { token: owner.token })
  expect(again.status).toBe(200)
  expect(await health()).toMatchObject({ status: 'ok', store: 'ok' })
}, 60_000)
