import { afterAll, beforeAll } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { ROOT, run, startServer, type RunningServer } from '../../scripts/support/process'
import { bearer } from '../support/bearer'
import { launchChromium } from './browser'

export type BinaryApp = {
  readonly server: RunningServer
  readonly browser: Browser
  /** The user's API token. */
  readonly token: string
  /** fetch on `/api<path>` with the token. */
  api(path: string, init?: RequestInit): Promise<Response>
  /** The `data` of a successful API answer; anything else throws with the status and body. */
  json<T>(path: string, init?: RequestInit): Promise<T>
  /** Opens the dashboard and signs in with the API token, landing on the files list. */
  signIn(page: Page): Promise<void>
  /** Runs the binary's CLI on the app's data dir (e.g. `user passwd NAME --password-stdin`). */
  cli(args: string[], options?: { stdin?: string }): ReturnType<typeof run>
}

/**
 * For a browser test file: the compiled binary copied into a fresh folder, one user with an API token, the
 * server started with `env`, and Chromium; all stopped and removed after the file.
 */
export function useBinaryApp(options: { name: string; user: string; env?: Record<string, string> }): BinaryApp {
  const binarySource = join(ROOT, 'dist', 'pdfshare')
  const dir = mkdtempSync(join(tmpdir(), `pdfshare-e2e-${options.name}-`))
  let server: RunningServer | undefined
  let browser: Browser | undefined
  let token = ''
  beforeAll(async () => {
    if (!existsSync(binarySource)) throw new Error('dist/pdfshare is missing: run `bun run build` (bun run test does)')
    const binary = join(dir, 'pdfshare')
    copyFileSync(binarySource, binary)
    await run(['user', 'add', options.user], { cwd: dir, program: [binary] })
    token = (await run(['token', 'issue', options.user, '--label', 'e2e'], { cwd: dir, program: [binary] })).stdout.trim()
    server = await startServer([], { cwd: dir, program: [binary], env: options.env ?? {} })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the binary app is not started yet (use it inside tests)')
    return value
  }
  const app: BinaryApp = {
    get server() {
      return started(server)
    },
    get browser() {
      return started(browser)
    },
    get token() {
      return token
    },
    api: (path, init = {}) => fetch(`${app.server.url}/api${path}`, { ...init, headers: { ...bearer(token), ...init.headers } }),
    async json<T>(path: string, init: RequestInit = {}) {
      const response = await app.api(path, init)
      if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`)
      return ((await response.json()) as { data: T }).data
    },
    cli: (args, cliOptions = {}) => run(args, { cwd: dir, program: [join(dir, 'pdfshare')], stdin: cliOptions.stdin }),
    async signIn(page) {
      await page.goto(`${app.server.url}/app`)
      await page.getByRole('button', { name: 'Use an API token instead' }).click()
      await page.getByLabel('API token').fill(token)
      await page.getByRole('button', { name: 'Sign in' }).click()
    },
  }
  return app
}
