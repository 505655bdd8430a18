import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { ROOT, startServer } from '../../scripts/support/process'
import { prometheusMetrics } from '../../src/core/metrics/prometheus'
import { createRendererPool, RenderFailed } from '../../src/core/previews/renderer-pool'
import { startWebhookDispatcher } from '../../src/core/webhooks/dispatcher'
import { bearer } from '../support/bearer'
import { eventually } from '../support/eventually'
import { form, startTestApp } from '../support/harness'
import { skipWithout } from '../support/host-tools'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// GET /metrics: off unless PDFSHARE_METRICS_TOKEN is set, then behind that bearer token; what it counts, by
// route pattern (never a path asked for); and Prometheus' own linter (promtool, Debian's `prometheus`) on it.
const PROMTOOL = '/usr/bin/promtool'
const noPromtool = skipWithout([PROMTOOL], 'apt-get install -y --no-install-recommends prometheus')
const TOKEN = 'metrics-token-0123456789abcdef'
const scratch = mkdtempSync(join(tmpdir(), 'pdfshare-metrics-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

type Sample = { name: string; labels: Record<string, string>; value: number }

/** The samples of an exposition (label values here never hold a quote or a comma). */
function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
      if (!match) throw new Error(`not a sample line: ${line}`)
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))
      return { name: match[1]!, labels, value: Number(match[3]) }
    })
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samplesOf(text).filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`)
  return found[0]?.value
}

async function promtool(text: string): Promise<{ code: number; output: string }> {
  const file = join(scratch, `metrics-${Date.now()}.txt`)
  writeFileSync(file, text)
  const proc = Bun.spawn(['sh', '-c', `${PROMTOOL} check metrics < "$0"`, file], { stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, output: `${out}${err}` }
}

describe('without PDFSHARE_METRICS_TOKEN', async () => {
  const server = await startTestApp()
  test('/metrics does not exist', async () => {
    expect((await server.callInProcess('GET', '/metrics')).status).toBe(404)
    expect((await server.callInProcess('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
  })
})

describe('with PDFSHARE_METRICS_TOKEN', async () => {
  const server = await startTestApp({ PDFSHARE_METRICS_TOKEN: TOKEN, PDFSHARE_RATE_LIMIT_SHARE: '5', PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' })
  const scrape = async () => {
    const response = await server.callInProcess('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(response.status).toBe(200)
    return response.text()
  }

  test('it needs exactly the token, as a bearer token', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      `Basic ${btoa(`x:${TOKEN}`)}`,
      `Bearer ${TOKEN}x`,
      'Bearer ',
    ]) {
      const response = await server.callInProcess('GET', '/metrics', { headers: authorization ? { authorization } : {} })
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toStartWith('Bearer')
    }
    // A user's API token is not the metrics token.
    const alice = await server.user()
    expect((await server.callInProcess('GET', '/metrics', { token: alice.token })).status).toBe(401)
    const response = await server.callInProcess('GET', '/metrics', { headers: { authorization: `bearer  ${TOKEN}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
  })

  test('it counts requests by route pattern, uploads, views, renders, rate-limit refusals and the outboxes', async () => {
    const alice = await server.user()
    const webhook = await server.callInProcess('POST', '/api/webhooks', {
      token: alice.token,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['file.uploaded'] }),
      headers: { 'content-type': 'application/json' },
    })
    expect(webhook.status).toBe(201)
    const pdf = makePdf({ pages: 2 })
    const file = await uploadPdf(server, alice, pdf)
    const replacement = makePdf({ pages: 1, text: () => 'second' })
    const put = await server.callInProcess('PUT', `/api/files/${file.id}`, { token: alice.token, body: form({ bytes: replacement }) })
    expect(put.status).toBe(200)
    for (let i = 0; i < 2; i++)
      expect((await server.callInProcess('GET', `/api/files/${file.id}`, { token: alice.token })).status).toBe(200)
    expect((await server.callInProcess('GET', '/no/such/path/123')).status).toBe(404)
    const sharePath = sharePathOf(file)
    // Five share requests a minute for this client: the next ones are refused. The limit counts per minute of the
    // app's clock, which stands still for these requests, so that they cannot straddle two windows (a render
    // on a busy machine can take seconds).
    const clock = server.ctx.now
    const still = clock()
    server.ctx.now = () => still
    let refused = 0
    try {
      expect((await server.callInProcess('GET', sharePath, { headers: { 'user-agent': FIREFOX } })).status).toBe(200)
      expect((await server.callInProcess('GET', `${sharePath}/preview.png`)).status).toBe(200)
      for (let i = 0; i < 6; i++) if ((await server.callInProcess('GET', `${sharePath}/preview.png`)).status === 429) refused++
    } finally {
      server.ctx.now = clock
    }
    expect(refused).toBeGreaterThan(0)

    await eventually(async () => {
      const text = await scrape()
      const requests = (route: string, status: string, method = 'GET') =>
        sampleValue(text, 'pdfshare_http_requests_total', { method, route, status })
      expect(requests('/api/files/:id', '200')).toBe(2)
      expect(requests('/api/files/:id', '200', 'PUT')).toBe(1)
      expect(requests('/api/files/upload', '201', 'POST')).toBe(1)
      expect(requests('unmatched', '404')).toBe(1)
      expect(requests('/s/:slug/preview.png', '429')).toBe(refused)
      expect(sampleValue(text, 'pdfshare_http_request_duration_seconds_count', { method: 'GET', route: '/api/files/:id' })).toBe(2)
      // Route patterns only: no file id, slug or path that was asked for.
      expect(text).not.toContain(file.id)
      expect(text).not.toContain('/no/such/path')
      expect(sampleValue(text, 'pdfshare_uploads_total', { kind: 'new' })).toBe(1)
      expect(sampleValue(text, 'pdfshare_upload_bytes_total', { kind: 'new' })).toBe(pdf.length)
      expect(sampleValue(text, 'pdfshare_uploads_total', { kind: 'replacement' })).toBe(1)
      expect(sampleValue(text, 'pdfshare_upload_bytes_total', { kind: 'replacement' })).toBe(replacement.length)
      expect(sampleValue(text, 'pdfshare_views_total', { outcome: 'counted' })).toBe(1)
      expect(sampleValue(text, 'pdfshare_renders_total', { kind: 'card', outcome: 'ok' })).toBe(1)
      expect(sampleValue(text, 'pdfshare_render_duration_seconds_count', { kind: 'card' })).toBe(1)
      expect(sampleValue(text, 'pdfshare_renderer_jobs', { pool: 'first', state: 'waiting' })).toBe(0)
      expect(sampleValue(text, 'pdfshare_rate_limit_refusals_total', { limit: 'per address on /s/*' })).toBe(refused)
      // The upload's webhook delivery waits: this test app runs no dispatcher.
      expect(sampleValue(text, 'pdfshare_outbox_pending', { outbox: 'webhooks' })).toBe(1)
      expect(sampleValue(text, 'pdfshare_outbox_pending', { outbox: 'mail' })).toBe(0)
      expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000)
      expect(sampleValue(text, 'pdfshare_info')).toBe(1)
    })
  })

  test.skipIf(noPromtool)('promtool check metrics finds nothing to complain about', async () => {
    const { code, output } = await promtool(await scrape())
    expect(output).toBe('')
    expect(code).toBe(0)
    // …and it does complain about what breaks the rules (a counter without _total).
    expect((await promtool('# HELP broken a counter\n# TYPE broken counter\nbroken 1\n')).code).not.toBe(0)
  })
})

describe('the failures it counts', async () => {
  const server = await startTestApp({ PDFSHARE_METRICS_TOKEN: TOKEN, PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1' })
  const clock = { offset: 0 }
  server.ctx.now = () => Date.now() + clock.offset
  const scrape = async () => (await server.callInProcess('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text()
  const alice = await server.user() // the first user: an admin

  test('a webhook delivery retried, then given up after its day', async () => {
    const created = await server.callInProcess('POST', '/api/webhooks', {
      token: alice.token,
      // Port 9 (discard) refuses the connection on this machine: every attempt fails at once.
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['file.uploaded'] }),
      headers: { 'content-type': 'application/json' },
    })
    expect(created.status).toBe(201)
    await uploadPdf(server, alice, makePdf({ pages: 1 }))
    const dispatcher = startWebhookDispatcher(server.ctx, { timeoutMs: 700, pollMs: 50 })
    try {
      await eventually(async () => {
        const text = await scrape()
        expect(sampleValue(text, 'pdfshare_outbox_attempts_total', { outbox: 'webhooks', result: 'retry' })).toBe(1)
        expect(sampleValue(text, 'pdfshare_outbox_pending', { outbox: 'webhooks' })).toBe(1)
      })
      clock.offset = 25 * 60 * 60 * 1000 // past the 24 h retry window
      dispatcher.nudge()
      await eventually(async () => {
        const text = await scrape()
        expect(sampleValue(text, 'pdfshare_outbox_attempts_total', { outbox: 'webhooks', result: 'failed' })).toBe(1)
        expect(sampleValue(text, 'pdfshare_outbox_pending', { outbox: 'webhooks' })).toBe(0)
      })
    } finally {
      await dispatcher.stop()
      clock.offset = 0
    }
  })

  test('a blob store that cannot write, and a database that fails a query: 500s, counted by operation and kind', async () => {
    // The blobs folder replaced by a file: storing the PDF fails on the disk itself (ENOTDIR).
    const blobs = join(server.dataDir, 'blobs')
    rmSync(blobs, { recursive: true, force: true })
    writeFileSync(blobs, '')
    try {
      const upload = await server.callInProcess('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: makePdf() }) })
      expect(upload.status).toBe(500)
    } finally {
      rmSync(blobs, { force: true })
      mkdirSync(blobs, { mode: 0o700 })
    }
    // A table gone from under the server: the next query of it fails in the database.
    await server.ctx.db.hot.write('DROP TABLE invitations', [])
    const invitations = await server.callInProcess('GET', '/api/admin/invitations', { token: alice.token })
    expect(invitations.status).toBe(500)

    const text = await scrape()
    expect(sampleValue(text, 'pdfshare_blob_store_errors_total', { operation: 'put' })).toBe(1)
    expect(sampleValue(text, 'pdfshare_database_errors_total', { kind: 'other' })).toBe(1)
    if (!noPromtool) expect(await promtool(text)).toEqual({ code: 0, output: '' })
  })

  test('a scrape while the database fails still answers: the errors and memory, without the outbox depth', async () => {
    const before = sampleValue(await scrape(), 'pdfshare_database_errors_total', { kind: 'other' }) ?? 0
    await server.ctx.db.hot.write('DROP TABLE mail_outbox', [])
    const first = await server.callInProcess('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(first.status).toBe(200)
    const text = await scrape()
    // Each scrape's failed count is one more database error (this one's may show in this scrape or the next).
    expect(sampleValue(text, 'pdfshare_database_errors_total', { kind: 'other' })).toBeGreaterThan(before)
    expect(samplesOf(text).filter((sample) => sample.name === 'pdfshare_outbox_pending')).toEqual([])
    expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000)
    if (!noPromtool) expect(await promtool(text)).toEqual({ code: 0, output: '' })
  })

  test('renderers killed for time and for memory, and the renders that failed with them', async () => {
    // The pool the server uses, with its metrics, running the stand-in renderer that misbehaves on request.
    const metrics = prometheusMetrics({ outboxDepth: async () => ({ webhooks: 0, mail: 0, notifications: 0 }) })
    const pool = createRendererPool({
      // 0.5 s of CPU time; the wall clock never decides here, however little of the CPU the renderer gets.
      timeoutMs: 500,
      wallMs: 600_000,
      memoryBytes: 128 * 1024 * 1024,
      concurrency: 1,
      maxQueued: 4,
      idleMs: 60_000,
      command: ['bun', join(import.meta.dir, '..', 'support', 'fake-renderer.ts')],
      metrics: { to: metrics, pool: 'test' },
    })
    try {
      expect(await pool.render('/dev/null', join(scratch, 'hang-1.png')).catch((error: Error) => error)).toBeInstanceOf(RenderFailed)
      const hog = pool.render('/dev/null', join(scratch, 'hog-1.png'), { timeoutMs: 30_000 })
      expect(await hog.catch((error: Error) => error)).toBeInstanceOf(RenderFailed)
      await pool.render('/dev/null', join(scratch, 'fine-1.png'))
    } finally {
      pool.close()
    }
    const { text } = await metrics.collect()
    expect(sampleValue(text, 'pdfshare_renderers_killed_total', { reason: 'time' })).toBe(1)
    expect(sampleValue(text, 'pdfshare_renderers_killed_total', { reason: 'memory' })).toBe(1)
    expect(sampleValue(text, 'pdfshare_renders_total', { kind: 'card', outcome: 'failed' })).toBe(2)
    expect(sampleValue(text, 'pdfshare_renders_total', { kind: 'card', outcome: 'ok' })).toBe(1)
    expect(sampleValue(text, 'pdfshare_render_duration_seconds_count', { kind: 'card' })).toBe(3)
    expect(sampleValue(text, 'pdfshare_renderer_jobs', { pool: 'test', state: 'running' })).toBe(0)
    if (!noPromtool) expect(await promtool(text)).toEqual({ code: 0, output: '' })
  })
})

describe('docs/grafana-dashboard.json', async () => {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'docs', 'grafana-dashboard.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[]
  }
  const expressions = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr)
  const server = await startTestApp({ PDFSHARE_METRICS_TOKEN: TOKEN })

  test('every metric it queries is one the server exports', async () => {
    const text = await (await server.callInProcess('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text()
    const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!))
    const queried = new Set(
      expressions.flatMap((expr) => [...expr.matchAll(/\b((?:pdfshare|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!)),
    )
    expect(queried.size).toBeGreaterThan(15)
    for (const name of queried)
      expect(
        [name, name.replace(/_(bucket|sum|count)$/, '')].some((n) => exported.has(n)),
        name,
      ).toBe(true)
  })

  test.skipIf(noPromtool)('every query is valid PromQL (promtool check rules, with Grafana’s variables filled in)', async () => {
    const rules = expressions.map((expr, i) => {
      const promql = expr.replaceAll('$__rate_interval', '5m').replaceAll('$job', '.*').replaceAll('$instance', '.*')
      return `      - record: dashboard:query${i}\n        expr: ${JSON.stringify(promql)}`
    })
    const file = join(scratch, 'dashboard-rules.yml')
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`)
    const proc = Bun.spawnSync([PROMTOOL, 'check', 'rules', file], { stdout: 'pipe', stderr: 'pipe' })
    expect(`${proc.stdout}${proc.stderr}`).toContain(`SUCCESS: ${expressions.length} rules found`)
    expect(proc.exitCode).toBe(0)
  })
})

test('the compiled binary serves /metrics too (prom-client inside it)', async () => {
  const built = join(ROOT, 'dist', 'pdfshare')
  expect(existsSync(built)).toBe(true)
  const dir = mkdtempSync(join(scratch, 'binary-'))
  copyFileSync(built, join(dir, 'pdfshare'))
  const server = await startServer([], { cwd: dir, program: [join(dir, 'pdfshare')], env: { PDFSHARE_METRICS_TOKEN: TOKEN } })
  try {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401)
    const response = await fetch(`${server.url}/metrics`, { headers: bearer(TOKEN) })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(sampleValue(text, 'pdfshare_http_requests_total', { method: 'GET', route: '/api/health', status: '200' })).toBe(1)
    expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000)
    if (!noPromtool) expect(await promtool(text)).toEqual({ code: 0, output: '' })
  } finally {
    expect(await server.stop()).toBe(0)
  }
})
