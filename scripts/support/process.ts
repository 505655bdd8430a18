import { join } from 'node:path'
import { testRunEnv } from './test-run'

export const ROOT = join(import.meta.dir, '..', '..')
/**
 * How these helpers run pdfshare unless told otherwise: the binary the test command built (it names it in
 * PDFSHARE_TEST_PROGRAM after its build: what ships, and a third of the CPU time to start as from source, which
 * adds up over the suite's hundreds of CLI runs and servers), else from source (a plain `bun test`).
 */
export const PDFSHARE_PROGRAM = process.env.PDFSHARE_TEST_PROGRAM
  ? [process.env.PDFSHARE_TEST_PROGRAM]
  : ['bun', join(ROOT, 'src', 'main.ts')]

/**
 * The environment every pdfshare these helpers start begins with. Its renderers run at the priority of
 * everything else: on a test machine everything else is other tests, which would starve them at their production
 * nice value of 10 (test/support/harness.ts does the same for in-process apps). The search index is off, as it is
 * for in-process apps: reading every uploaded PDF's text in the background would only compete with the tests for
 * the CPU (test/api/search.test.ts turns it on, and a test may pass PDFSHARE_SEARCH_INDEX in its own env).
 */
const baseEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  PDFSHARE_PREVIEW_NICE: '0',
  PDFSHARE_SEARCH_INDEX: 'false',
  ...testRunEnv(),
})

export type RunResult = { code: number; stdout: string; stderr: string }

/** Runs pdfshare (from source unless `program` says otherwise) to completion. */
export async function run(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; program?: string[]; stdin?: string } = {},
): Promise<RunResult> {
  const proc = Bun.spawn([...(options.program ?? PDFSHARE_PROGRAM), ...args], {
    cwd: options.cwd ?? ROOT,
    stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
    env: { ...baseEnv(), ...options.env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}

/** How long `stop` waits for a server to exit after SIGTERM before it kills it. */
const STOP_GRACE_MS = 40_000

export type RunningServer = {
  url: string
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>
  stderr: () => string
  stop: () => Promise<number>
}

/** Starts `serve` on a free port and waits until /api/health answers. */
export async function startServer(
  args: string[],
  options: {
    env?: Record<string, string>
    cwd?: string
    program?: string[]
    /** Gets the server's output as it comes (else stdout, the access log, is drained unread). */
    onOutput?: (stream: 'stdout' | 'stderr', text: string) => void
    /**
     * How long the server may take to say it listens: 60 s unless given (a bound for one that never starts; from
     * source on a busy machine it can take tens of seconds, an emulated binary longer).
     */
    startTimeoutMs?: number
  } = {},
): Promise<RunningServer> {
  const proc = Bun.spawn([...(options.program ?? PDFSHARE_PROGRAM), 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...baseEnv(), ...options.env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let stderr = ''
  const decoder = new TextDecoder()
  const onOutput = options.onOutput
  const reading = (async () => {
    for await (const chunk of proc.stderr) {
      const text = decoder.decode(chunk, { stream: true })
      stderr += text
      onOutput?.('stderr', text)
    }
  })()
  if (onOutput) {
    void (async () => {
      const stdoutDecoder = new TextDecoder()
      for await (const chunk of proc.stdout) onOutput('stdout', stdoutDecoder.decode(chunk, { stream: true }))
    })()
  } else void new Response(proc.stdout).text() // drain the access log
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000)
  let url: string | undefined
  while (!url) {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)
    if (match) url = `http://127.0.0.1:${match[1]}`
    else if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${stderr}`)
    else await Bun.sleep(20)
  }
  return {
    url,
    proc,
    stderr: () => stderr,
    async stop() {
      proc.kill('SIGTERM')
      // A clean stop gives in-flight requests PDFSHARE_SHUTDOWN_TIMEOUT (30 s); one that hangs past that is killed,
      // so that no test leaves a server behind.
      const killer = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS)
      const code = await proc.exited
      clearTimeout(killer)
      await reading
      return code
    },
  }
}
