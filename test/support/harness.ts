import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'bun:test'
import { createApp, type App } from '../../src/app'
import { loadConfig, type Config } from '../../src/config'
import type { Logger } from '../../src/log'
import { issueToken } from '../../src/modules/auth/service/issue-token'
import { addUser } from '../../src/modules/auth/users'
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
  /** app.handle on a path, with an optional bearer token. */
  call(method: string, path: string, init?: { token?: string; body?: BodyInit | null; headers?: Record<string, string> }): Promise<Response>
}

let counter = 0

/**
 * A fresh app on a fresh data dir with a migrated libSQL file (or, with PDFSHARE_TEST_BACKEND=postgres-s3, a
 * fresh PostgreSQL database and bucket: backend.ts): no mocks. Env settings can be passed as
 * they would be in production (e.g. PDFSHARE_MAX_FILE_SIZE). Closed and removed after the test file.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { sameInstallAs?: TestServer } = {}): Promise<TestServer> {
  // Another instance of an existing install: the same database and bucket, its own data dir (on the embedded
  // backend the install is its data dir, so it shares that).
  const joined = options.sameInstallAs
  const ownDataDir = !joined || testBackend !== 'embedded'
  const dataDir = ownDataDir ? mkdtempSync(join(tmpdir(), 'pdfshare-test-')) : joined.dataDir
  const backend = joined ? { env: joined.backendEnv, cleanup: async () => {} } : await backendSettings()
  const config = loadConfig(
    { data: dataDir, 'public-url': 'https://pdf.example.test/base' },
    { PDFSHARE_RATE_LIMIT_API: '0', ...backend.env, ...env },
  )
  const log = memoryLogger()
  const ctx = await openContext(config, log)
  const app = createApp(ctx)
  afterAll(async () => {
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
      const headers = new Headers(init.headers)
      if (init.token) headers.set('authorization', `Bearer ${init.token}`)
      return app.handle(new Request(`${BASE}${path}`, { method, headers, body: init.body ?? null }))
    },
  }
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
