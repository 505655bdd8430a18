/**
 * HAProxy in front of several pdfshare instances, for tests of a scaled-out install: Debian's haproxy (2.6),
 * one config in a temp dir, in the foreground as our child process. Round robin over the given servers, each
 * checked on GET /api/health every 200 ms (a dead one is out within about half a second), a request whose
 * connection failed tried again on another server (it cannot have reached one), and a GET or HEAD also after a
 * connection closed without an answer, never a write; one request per client connection, so a write whose server
 * died is answered 502 rather than cut off for the client to resend (docs/scale-out.md: the configuration there
 * is this one), the client's address passed on in X-Forwarded-For, and
 * timeouts long enough for a 100 MB upload on a slow link. Every answer says which server gave it in
 * `X-Pdfshare-Backend` (the server's name: s1, s2, …). Stopped when the process exits, also by a kill -9 (a
 * watchdog).
 *
 * Needs Debian's package: apt-get install -y haproxy
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { watchdog } from './watchdog'

const PACKAGE = 'apt-get install -y haproxy'

export type LoadBalancer = {
  /** The frontend, e.g. http://127.0.0.1:41234 */
  url: string
  /** The server names in the config, in the order of `backends`: s1, s2, … */
  names: string[]
  stop: () => Promise<void>
}

/** The header every answer through the balancer carries, naming the server that gave it. */
export const BACKEND_HEADER = 'x-pdfshare-backend'

/**
 * `requestRules`: extra `http-request` lines for the frontend (e.g. the test harness's header clean-up).
 * `checks`: by index, where a server's health checks go instead of the server itself (a test's server that passes
 * its checks and refuses connections).
 */
export async function startLoadBalancer(options: {
  backends: string[]
  port?: number
  requestRules?: string[]
  checks?: (string | undefined)[]
}): Promise<LoadBalancer> {
  const haproxy = Bun.which('haproxy') ?? Bun.which('haproxy', { PATH: '/usr/sbin:/usr/local/sbin' })
  if (!haproxy) throw new Error(`HAProxy is not installed (no haproxy on the PATH or in /usr/sbin); install it with: ${PACKAGE}`)
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-haproxy-'))
  const port = options.port ?? freePort()
  const names = options.backends.map((_, index) => `s${index + 1}`)
  const config = join(dir, 'haproxy.cfg')
  writeFileSync(
    config,
    haproxyConfig({ port, backends: options.backends, names, requestRules: options.requestRules ?? [], checks: options.checks ?? [] }),
  )
  const check = Bun.spawnSync([haproxy, '-c', '-f', config], { stdout: 'pipe', stderr: 'pipe' })
  if (check.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`haproxy refused its config:\n${check.stderr.toString()}${check.stdout.toString()}`)
  }

  // -db: foreground, no daemon, so the pid we hold is HAProxy's own.
  const proc = Bun.spawn([haproxy, '-db', '-f', config], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' })
  let stderr = ''
  void (async () => {
    for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk)
  })()
  // Once this process is gone, however it ended: HAProxy killed, its folder removed.
  const endWatchdog = watchdog('haproxy', 'kill -9 "$2" 2>/dev/null; rm -rf "$3"', [String(proc.pid), dir])
  let stopped = false
  const stopNow = () => {
    if (stopped) return
    stopped = true
    proc.kill('SIGKILL')
    endWatchdog()
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stopNow)

  const url = `http://127.0.0.1:${port}`
  // A bound for one that never answers (on a busy machine HAProxy's first health checks can take seconds).
  const deadline = Date.now() + 60_000
  for (;;) {
    if (proc.exitCode !== null) {
      stopNow()
      throw new Error(`haproxy exited with ${proc.exitCode}:\n${stderr}`)
    }
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) {
      stopNow()
      throw new Error(`haproxy did not answer on ${url} within 60 s:\n${stderr}`)
    }
    await Bun.sleep(50)
  }
  return {
    url,
    names,
    async stop() {
      stopNow()
      await proc.exited
    },
  }
}

function haproxyConfig(input: {
  port: number
  backends: string[]
  names: string[]
  requestRules: string[]
  checks: (string | undefined)[]
}): string {
  const servers = input.backends.map((backend, index) => {
    const { hostname, port } = new URL(backend)
    const check = input.checks[index]
    const elsewhere = check ? ` addr ${new URL(check).hostname} port ${new URL(check).port}` : ''
    return `  server ${input.names[index]} ${hostname}:${port} check${elsewhere}`
  })
  return `global
  maxconn 2000

defaults
  mode http
  # Uploads of 100 MB over a slow link: the body may take minutes, an answer comes once it is stored.
  timeout connect 2s
  timeout client 300s
  timeout server 300s
  timeout http-request 30s
  timeout queue 30s
  # Retried on another server: a request whose connection failed (it cannot have reached a server), and a GET or
  # HEAD whose connection closed without an answer. Never a POST, PUT, PATCH or DELETE that was sent: the server
  # may have committed it before it died, and HAProxy would resend it whatever its method (the frontend's
  # disable-l7-retry); a client retries those itself, with an Idempotency-Key.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  option forwardfor
  # One request per client connection. On a kept-alive one, a request after the first whose server closed without
  # answering gets no 502: HAProxy closes the client's connection without a word, which tells the client the
  # request was not processed and invites it to send it again — and Bun's fetch does so for a PUT or DELETE, to
  # another instance, after the dead one had done it (test/scale/balancer-retries.test.ts).
  option httpclose

frontend pdfshare
  bind 127.0.0.1:${input.port}
  http-request disable-l7-retry unless METH_GET
${input.requestRules.map((rule) => `  http-request ${rule}\n`).join('')}  default_backend instances

backend instances
  balance roundrobin
  option httpchk GET /api/health
  http-check expect status 200
  # A dead instance is out after 2 failed checks 200 ms apart (its refused connection fails a check at once), and
  # back after one good one. A slow answer is not a dead instance: a check may take 5 s (else a busy machine's
  # instances all go out and every request is a 503, though each would have been answered).
  timeout check 5s
  default-server inter 200ms fastinter 200ms downinter 500ms fall 2 rise 1
  # after-response: also on HAProxy's own answers (a 502 when the server died mid-request).
  http-after-response set-header X-Pdfshare-Backend %s
${servers.join('\n')}
`
}

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
