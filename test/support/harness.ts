import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'bun:test'
import { type Instances, startInstances } from '../../scripts/support/instances'
import { BACKEND_HEADER } from '../../scripts/support/load-balancer'
import { createApp, type App } from '../../src/app'
import { loadConfig, type Config } from '../../src/config'
import type { Logger } from '../../src/log'
import { issueToken } from '../../src/core/accounts/tokens/issue-token'
import { addUser } from '../../src/core/accounts/users/users'
import { openContext, type OpenedContext } from '../../src/open-context'
import { backendSettings, testBackend } from './backend'

export const BASE = 'http://localhost'

/** A logger that keeps what it was given, so tests stay quiet and can assert on log lines. */
export function memoryLogger(): Logger & { lines: string[]; errors: unknown[] } {
  const lines: string[] = []
  const errors: unknown[] = []
  return {
    lines,
    errors,
    info: (line) => lines.push(line),
    error: (line, error) => {
      lines.push(line)
      errors.push(error)
    },
  }
}

export type TestServer = {
  app: App
  ctx: OpenedContext
  config: Config
  log: ReturnType<typeof memoryLogger>
  dataDir: string
  /** The settings of the database and bucket it runs on (none on the embedded backend). */
  backendEnv: Record<string, string>
  /** Creates a user and a token for them. */
  user(name?: string, options?: { ttlSeconds?: number | null }): Promise<{ id: string; name: string; token: string; tokenId: string }>
  /** The balancer and its three server processes, on the postgres-s3-lb backend only. */
  instances?: Instances
  /**
   * app.handle on a path, with an optional bearer token. On the postgres-s3-lb backend: the same request as real
   * HTTP through HAProxy to the three server processes (round robin), see balancedCall.
   */
  call(method: string, path: string, init?: CallInit): Promise<Response>
  /**
   * Always app.handle of the in-process app, on every backend: for a test about this process's own state (its
   * data dir, its clock, how much of a request body it read), which a request through the balancer cannot see.
   */
  callInProcess(method: string, path: string, init?: CallInit): Promise<Response>
}

type CallInit = { token?: string; body?: BodyInit | null; headers?: Record<string, string> }

let counter = 0

/**
 * Settings every test app starts with unless its test says otherwise: no API rate limit; page 1 not drawn ahead
 * (elsewhere its background renders would only compete with the test for the CPU); renderers at the priority of
 * everything else, because on a test machine everything else is other tests, which would starve them at their
 * production nice value of 10.
 */
const TEST_DEFAULTS = {
  PDFSHARE_RATE_LIMIT_API: '0',
  PDFSHARE_DRAW_AHEAD: 'false',
  PDFSHARE_SEARCH_INDEX: 'false',
  PDFSHARE_PREVIEW_NICE: '0',
}

/**
 * A fresh app on a fresh data dir with a migrated libSQL file (or, with PDFSHARE_TEST_BACKEND=postgres-s3, a
 * fresh PostgreSQL database and bucket: backend.ts): no mocks. Env settings can be passed as
 * they would be in production (e.g. PDFSHARE_MAX_FILE_SIZE). Closed and removed after the test file.
 *
 * With PDFSHARE_TEST_BACKEND=postgres-s3-lb, also three `pdfshare serve` processes on that database and bucket
 * behind HAProxy (scripts/support/instances.ts), each with the test's settings, the same public URL, and one
 * more trusted proxy hop (the balancer). `call` goes through the balancer; `app`, `ctx` and `user` stay the
 * in-process app, one more instance of the same install. The processes' log lines land in `log` too.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { sameInstallAs?: TestServer } = {}): Promise<TestServer> {
  // Another instance of an existing install: the same database and bucket, its own data dir (on the embedded
  // backend the install is its data dir, so it shares that).
  const joined = options.sameInstallAs
  const ownDataDir = !joined || testBackend !== 'embedded'
  const dataDir = ownDataDir ? mkdtempSync(join(tmpdir(), 'pdfshare-test-')) : joined.dataDir
  const backend = joined ? { env: joined.backendEnv, cleanup: async () => {} } : await backendSettings()
  const config = loadConfig({ data: dataDir, 'public-url': 'https://pdf.example.test/base' }, { ...TEST_DEFAULTS, ...backend.env, ...env })
  const log = memoryLogger()
  const ctx = await openContext(config, log)
  const app = createApp(ctx)
  const callInProcess = (method: string, path: string, init: CallInit = {}) =>
    app.handle(new Request(`${BASE}${path}`, { method, headers: headersOf(init), body: init.body ?? null }))
  const balanced = testBackend === 'postgres-s3-lb' ? await balancedInstances(config, { ...backend.env, ...env }, log) : undefined
  afterAll(async () => {
    if (process.env.PDFSHARE_TEST_LB_REPORT && balanced) console.error('answers by instance:', [...balanced.served])
    await balanced?.instances.stop()
    // The app's renderer processes stop with the app (its onStop), which only a listening app has.
    app.listen({ port: 0, hostname: '127.0.0.1' })
    await app.stop()
    ctx.close()
    await backend.cleanup()
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    app,
    ctx,
    config,
    log,
    dataDir,
    backendEnv: backend.env,
    instances: balanced?.instances,
    async user(name = `user${++counter}`, options = {}) {
      const user = await addUser(ctx, { name })
      const { jwt, token } = await issueToken(ctx, {
        userName: name,
        label: 'test',
        ttlSeconds: options.ttlSeconds === undefined ? 3600 : options.ttlSeconds,
      })
      return { id: user.id, name, token: jwt, tokenId: token.id }
    },
    call(method, path, init = {}) {
      if (balanced) return balanced.call(method, path, headersOf(init), init.body ?? null)
      return callInProcess(method, path, init)
    },
    callInProcess,
  }
}

function headersOf(init: CallInit): Headers {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('authorization', `Bearer ${init.token}`)
  return headers
}

/** The headers fetch adds when a request has none; sent empty and removed by the balancer (REQUEST_RULES). */
const FETCH_DEFAULTS = ['user-agent', 'accept', 'accept-encoding']
const REQUEST_RULES = FETCH_DEFAULTS.map((name) => `del-header ${name} if { req.fhdr(${name}) -m len 0 }`)
/** How long `call` waits for the access-log line of its answer (written just after the answer is handed over). */
const LOG_LINE_WAIT_MS = 2000

/**
 * The postgres-s3-lb backend's servers: three processes on the install in `env` behind HAProxy, every line
 * they log added to `log` (stdout: the info lines; stderr after start-up: error lines, also in `log.errors`,
 * one entry per line since a stack arrives as text), and the `call` that sends a test's request through the
 * balancer as the in-process app would have received it: no headers fetch adds by itself, no redirects
 * followed, no body decoded. The test's X-Forwarded-For goes as it is (HAProxy appends the address it saw).
 * With PDFSHARE_TEST_LB_REPORT=1 each test app prints how many answers each instance gave.
 */
async function balancedInstances(config: Config, env: Record<string, string>, log: ReturnType<typeof memoryLogger>) {
  const waiting = new Map<string, () => void>()
  const pending = new Map<string, string>()
  const started = new Set<number>()
  const onLine = (index: number, stream: 'stdout' | 'stderr', line: string) => {
    if (stream === 'stdout') {
      log.lines.push(line)
      // An access-log line: `<time> <request id> <method> <path> <status> …`
      const id = line.split(' ')[1]
      if (id) waiting.get(id)?.()
    } else if (started.has(index)) {
      const text = line.trimEnd()
      if (text) {
        log.lines.push(text)
        log.errors.push(text)
      }
    } else if (line.includes(' listening on http://')) started.add(index)
  }
  const instances = await startInstances({
    count: 3,
    install: env,
    env: {
      ...TEST_DEFAULTS,
      ...env,
      PDFSHARE_PUBLIC_URL: config.publicUrl,
      PDFSHARE_TRUST_PROXY: String(config.trustProxyHops + 1),
    },
    requestRules: REQUEST_RULES,
    onOutput(index, stream, text) {
      const key = `${index} ${stream}`
      const lines = ((pending.get(key) ?? '') + text).split('\n')
      pending.set(key, lines.pop()!)
      for (const line of lines) onLine(index, stream, line)
    },
  })
  const lb = instances.balancer.url
  const served = new Map<string, number>()
  return {
    instances,
    /** How many answers each instance gave (s1, s2, s3). */
    served,
    async call(method: string, path: string, headers: Headers, body: BodyInit | null): Promise<Response> {
      for (const name of FETCH_DEFAULTS) if (!headers.has(name)) headers.set(name, '')
      const response = await fetch(`${lb}${path}`, { method, headers, body, redirect: 'manual', decompress: false })
      const backend = response.headers.get(BACKEND_HEADER)
      if (!backend) throw new Error(`${method} ${path}: the answer did not come through the balancer`)
      served.set(backend, (served.get(backend) ?? 0) + 1)
      // Its access-log line, so that a test reading `log` right after sees it, as it would in process.
      const id = response.headers.get('x-request-id')
      if (id && !log.lines.some((line) => line.includes(` ${id} `))) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            if (process.env.PDFSHARE_TEST_LB_REPORT) console.error(`no access-log line within 2 s for ${method} ${path} ${response.status}`)
            resolve()
          }, LOG_LINE_WAIT_MS)
          waiting.set(id, () => {
            clearTimeout(timer)
            resolve()
          })
        })
        waiting.delete(id)
      }
      return response
    },
  }
}

/** The files in the data dir's tmp/ of the app and, behind the balancer, of every instance. */
export function tempFilesOf(server: TestServer): string[] {
  return [server.dataDir, ...(server.instances?.dataDirs ?? [])].flatMap((dir) => readdirSync(join(dir, 'tmp')))
}

/** A FormData upload body: the file part first unless `fileLast`, then the text fields. */
export function form(
  file: { bytes: Uint8Array | Blob; name?: string; type?: string } | undefined,
  fields: Record<string, string> = {},
  fileLast = false,
): FormData {
  const data = new FormData()
  const addFile = () => {
    if (!file) return
    const blob = file.bytes instanceof Blob ? file.bytes : new Blob([file.bytes as Uint8Array<ArrayBuffer>])
    data.append('file', new File([blob], file.name ?? 'report.pdf', { type: file.type ?? 'application/pdf' }))
  }
  if (!fileLast) addFile()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  if (fileLast) addFile()
  return data
}

/** Hand-built multipart bodies, for shapes FormData cannot make (duplicate parts, a file without filename…). */
export function rawMultipart(
  parts: { name: string; filename?: string; type?: string; body: string | Uint8Array }[],
  boundary = 'pdfshareTestBoundary',
): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const encoder = new TextEncoder()
  const chunks: Uint8Array[] = []
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`
    if (part.filename !== undefined) head += `; filename="${part.filename}"`
    head += '\r\n'
    if (part.type) head += `Content-Type: ${part.type}\r\n`
    chunks.push(
      encoder.encode(`${head}\r\n`),
      typeof part.body === 'string' ? encoder.encode(part.body) : part.body,
      encoder.encode('\r\n'),
    )
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`))
  return { body: new Uint8Array(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${boundary}` }
}

export async function json<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T
}
