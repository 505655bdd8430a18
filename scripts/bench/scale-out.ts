import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { sharedCeph } from '../support/ceph'
import { type Instances, startInstances } from '../support/instances'
import { commandOf, freshDir, median, ROOT, serve } from './support'
import { distinctVisitors, wrk } from './wrk'

const CONNECTIONS = 64
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** wrk on core 1; the servers, PostgreSQL, the gateway and HAProxy share both cores, as they would on one box. */
const LOAD_CPU = 1
const LIMITS_OFF = { PDFSHARE_RATE_LIMIT_API: '100000000', PDFSHARE_RATE_LIMIT_SHARE: '100000000', PDFSHARE_TRUST_PROXY: '1' }
const PDF_BYTES = 4 * 1024 * 1024

/** Requests per second of one setup's paths (medians of the rounds). */
export type SetupSpeed = { api: number; page: number; range: number; errors: number }
export type ScaleOut = {
  embedded: SetupSpeed
  postgres1: SetupSpeed
  postgres3: SetupSpeed
  /** The same 64 KiB range reads straight from the gateway with a presigned URL, what a redirect would give. */
  presignedRange: number
  /** A 4 MiB PDF read whole: through pdfshare from the bucket, and straight from the gateway (presigned), ms. */
  streamedMs: number
  presignedMs: number
}

/**
 * The same three paths — an authenticated `GET /api/files/:id`, a share page for a new counted visitor each
 * request, 64 KiB range reads of the PDF — on the embedded default (one process, libSQL file, local disk),
 * on PostgreSQL + S3 with one instance, and with three instances behind HAProxy. Everything runs on this one
 * 2-core machine, so three instances cannot be faster than one here: the rows show what the shared engines
 * cost per request, not what more machines would give.
 */
export async function scaleOut(binary: string): Promise<ScaleOut> {
  const program = commandOf(binary)
  const embeddedDir = freshDir('scale-embedded')
  const cli = (...args: string[]) =>
    Bun.spawnSync([...program, ...args, '--data', embeddedDir])
      .stdout.toString()
      .trim()
  cli('user', 'add', 'bench')
  const embeddedToken = cli('token', 'issue', 'bench')
  const embedded = await serve(binary, embeddedDir, LIMITS_OFF)
  let one: Instances | undefined
  let three: Instances | undefined
  try {
    const embeddedSpeed = await speedOf(embedded.url, embeddedToken)
    embedded.proc.kill('SIGTERM')
    await embedded.proc.exited

    one = await startInstances({ count: 1, env: LIMITS_OFF, program })
    const oneToken = await tokenOn(one)
    const oneSpeed = await speedOf(one.servers[0]!.url, oneToken)
    const presigned = await presignedComparison(one, oneToken)
    await one.stop()
    one = undefined

    three = await startInstances({ count: 3, env: LIMITS_OFF, program })
    const threeSpeed = await speedOf(three.balancer.url, await tokenOn(three))
    return { embedded: embeddedSpeed, postgres1: oneSpeed, postgres3: threeSpeed, ...presigned }
  } finally {
    if (embedded.proc.exitCode === null) embedded.proc.kill('SIGTERM')
    await one?.stop()
    await three?.stop()
    rmSync(embeddedDir, { recursive: true, force: true })
  }
}

async function tokenOn(instances: Instances): Promise<string> {
  await instances.cli(['user', 'add', 'bench'])
  return (await instances.cli(['token', 'issue', 'bench'])).stdout.trim()
}

async function uploadTo(base: string, token: string): Promise<{ id: string; path: string }> {
  const bytes = new Uint8Array(PDF_BYTES)
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'))
  const form = new FormData()
  form.append('file', new File([bytes], 'bench.pdf', { type: 'application/pdf' }))
  const response = await fetch(`${base}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`)
  const { data } = (await response.json()) as { data: { id: string; shareUrl: string } }
  return { id: data.id, path: new URL(data.shareUrl).pathname }
}

async function speedOf(base: string, token: string): Promise<SetupSpeed> {
  const file = await uploadTo(base, token)
  const headers = { authorization: `Bearer ${token}` }
  const api = `${base}/api/files/${file.id}`
  const page = `${base}${file.path}`
  const range = `${base}${file.path}/file`
  const rangeHeaders = { range: 'bytes=1048576-1114111', 'user-agent': 'bench' }
  const run = (url: string, extra: Partial<Parameters<typeof wrk>[0]> = {}) =>
    wrk({ url, connections: CONNECTIONS, seconds: SECONDS, cpu: LOAD_CPU, ...extra })
  // Warm-up (JIT, connection pools, the gateway's caches).
  run(api, { headers, seconds: 1 })
  run(page, { script: distinctVisitors(), seconds: 1 })
  run(range, { headers: rangeHeaders, seconds: 1 })
  const rounds = Array.from({ length: ROUNDS }, () => ({
    api: run(api, { headers }),
    page: run(page, { script: distinctVisitors() }),
    range: run(range, { headers: rangeHeaders }),
  }))
  return {
    api: median(rounds.map((r) => r.api.rps)),
    page: median(rounds.map((r) => r.page.rps)),
    range: median(rounds.map((r) => r.range.rps)),
    errors: rounds.reduce((sum, r) => sum + r.api.errors + r.page.errors + r.range.errors, 0),
  }
}

/** Streaming through the instance against redirecting to the gateway: the price of keeping our headers. */
async function presignedComparison(instances: Instances, token: string) {
  const file = await uploadTo(instances.servers[0]!.url, token)
  const gateway = await sharedCeph()
  const client = new Bun.S3Client({
    endpoint: gateway.endpoint,
    bucket: instances.env.PDFSHARE_S3_BUCKET,
    region: gateway.region,
    accessKeyId: gateway.accessKeyId,
    secretAccessKey: gateway.secretAccessKey,
  })
  // Every PDF uploaded here has the same 4 MiB: any of them serves as the one read straight from the gateway.
  const key = (await client.list({ prefix: 'blobs/' })).contents?.map((object) => object.key).find((name) => name.endsWith('.pdf'))
  if (!key) throw new Error('no PDF in the bucket')
  const presigned = client.file(key).presign({ expiresIn: 600 })
  const rangeHeaders = { range: 'bytes=1048576-1114111' }
  wrk({ url: presigned, connections: CONNECTIONS, seconds: 1, cpu: LOAD_CPU, headers: rangeHeaders })
  const presignedRange = median(
    Array.from(
      { length: ROUNDS },
      () => wrk({ url: presigned, connections: CONNECTIONS, seconds: SECONDS, cpu: LOAD_CPU, headers: rangeHeaders }).rps,
    ),
  )
  const timed = (url: string) => {
    const runs: number[] = []
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      const result = Bun.spawnSync(['curl', '-sS', '-o', '/dev/null', '-A', 'bench', url])
      if (result.exitCode !== 0) throw new Error(`curl ${url} failed: ${result.stderr}`)
      runs.push(performance.now() - started)
    }
    return median(runs)
  }
  return { presignedRange, streamedMs: timed(`${instances.servers[0]!.url}${file.path}/file`), presignedMs: timed(presigned) }
}

if (import.meta.main) console.log(JSON.stringify(await scaleOut(join(ROOT, 'dist', 'pdfshare')), null, 1))
