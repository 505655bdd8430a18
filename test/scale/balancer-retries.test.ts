import { afterAll, expect, test } from 'bun:test'
import type { Socket } from 'bun'
import { BACKEND_HEADER, startLoadBalancer } from '../../scripts/support/load-balancer'

// The balancer configuration of docs/scale-out.md (the one scripts/support/load-balancer.ts writes) in front of two
// servers that die on every request after reading it, as an instance killed between its commit and its answer:
// a write must reach one server once, never be sent again to the other (which would store an upload twice); a
// read may be tried again.
const seen: string[] = []
const HEALTHY = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{"success":true}'

/** A server that answers the balancer's health checks and takes every other request without answering it. */
function dyingServer() {
  const received = new Map<Socket<unknown>, string>()
  return Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      data(socket, chunk) {
        const text = (received.get(socket) ?? '') + new TextDecoder().decode(chunk)
        received.set(socket, text)
        const end = text.indexOf('\r\n\r\n')
        if (end < 0) return
        const [method, path] = text.split(' ')
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0)
        if (text.length - end - 4 < length) return // the whole body first: the request reached the server
        received.delete(socket)
        if (path === '/api/health') return void socket.end(HEALTHY)
        seen.push(`${method} ${path}`)
        socket.terminate() // dies before answering
      },
    },
  })
}

/** A server that answers every request 200, recording it in `answered`. */
const answered: string[] = []
function liveServer() {
  return Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url, 'http://pdf.example') // the health checks' HTTP/1.0 has no Host
      if (pathname !== '/api/health') answered.push(`${request.method} ${pathname}`)
      return Response.json({ success: true })
    },
  })
}

/** A port nothing listens on: a connection to it is refused, as to an instance that is down. */
function closedPort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

const servers = [dyingServer(), dyingServer()]
const balancer = await startLoadBalancer({ backends: servers.map((server) => `http://127.0.0.1:${server.port}`) })
// s1 refuses every connection but passes its health checks (they go to s2), so the balancer keeps choosing it.
const live = liveServer()
const overDown = await startLoadBalancer({
  backends: [`http://127.0.0.1:${closedPort()}`, `http://127.0.0.1:${live.port}`],
  checks: [`http://127.0.0.1:${live.port}`],
})
afterAll(async () => {
  await balancer.stop()
  await overDown.stop()
  for (const server of servers) server.stop(true)
  live.stop(true)
})

const WRITES = [
  ['POST', '/api/files/upload'],
  ['PUT', '/api/files/abc'],
  ['PATCH', '/api/links/abc'],
  ['DELETE', '/api/files/abc'],
] as const

/**
 * Sends `requests` one after another on one connection, as a client that keeps its connection alive does; the
 * first line of each answer, or null where the connection closed without one (or before it was sent).
 */
async function onOneConnection(url: string, requests: string[]): Promise<(string | null)[]> {
  let received = ''
  let closed = false
  let wake = () => {}
  const { hostname, port } = new URL(url)
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data(_, chunk) {
        received += new TextDecoder().decode(chunk)
        wake()
      },
      close() {
        closed = true
        wake()
      },
    },
  })
  const answers: (string | null)[] = []
  for (const request of requests) {
    received = ''
    if (!closed) socket.write(request)
    // Every answer here has a short JSON body: its blank line ends the head, the body follows in the same packet.
    while (!closed && !received.includes('\r\n\r\n')) await new Promise<void>((resolve) => (wake = resolve))
    answers.push(received ? received.slice(0, received.indexOf('\r\n')) : null)
  }
  socket.end()
  return answers
}

test('a write whose server died before answering is never sent to another one: the client gets a 502 and retries with its key', async () => {
  for (const [method, path] of WRITES) {
    seen.length = 0
    const response = await fetch(`${balancer.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' },
      keepalive: false, // a connection of its own: the balancer's answer, not a pooled connection it closed meanwhile
      body: method === 'DELETE' ? undefined : '{"title":"x"}',
    })
    expect(response.status).toBe(502)
    expect(seen).toEqual([`${method} ${path}`])
  }
})

test('a read is tried again on another server (the rule is not vacuous)', async () => {
  seen.length = 0
  const response = await fetch(`${balancer.url}/api/files`)
  expect(response.status).toBe(502)
  expect(seen.length).toBeGreaterThan(1)
  expect(new Set(seen)).toEqual(new Set(['GET /api/files']))
})

// HAProxy answers a request after the first on a kept-alive client connection, whose server closed without
// answering, by closing the client's connection without a word: "not processed, send it again". Bun's fetch then
// sent a PUT or DELETE again, to the other server, after the first had read it (the kill -9 test's DELETE answered
// 404 by another instance). With one request per client connection (option httpclose) every write is a first one.
test('a write sent on a connection that carried another request first is answered 502 too, and reaches one server once', async () => {
  for (const [method, path] of WRITES) {
    seen.length = 0
    const warm = await fetch(`${balancer.url}/api/health`) // the connection the write may go out on next
    expect(warm.status).toBe(200)
    await warm.text()
    const response = await fetch(`${balancer.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'DELETE' ? undefined : '{"title":"x"}',
    })
    expect(response.status).toBe(502)
    expect(seen).toEqual([`${method} ${path}`])
  }
  // The same without a client's habits: whatever is sent on a connection after a first answer, a write that
  // reached a server is answered.
  for (const [method, path] of WRITES) {
    seen.length = 0
    const body = method === 'DELETE' ? '' : '{"title":"x"}'
    const [first, write] = await onOneConnection(balancer.url, [
      'GET /api/health HTTP/1.1\r\nHost: pdf.example\r\n\r\n',
      `${method} ${path} HTTP/1.1\r\nHost: pdf.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ])
    expect(first).toBe('HTTP/1.1 200 OK')
    if (seen.length > 0) expect(write).toBe('HTTP/1.1 502 Bad Gateway')
    expect(seen.length).toBeLessThanOrEqual(1)
  }
})

test('a request whose server refuses the connection goes to another one, whatever its method: an instance that is down costs no client an error', async () => {
  answered.length = 0
  const statuses: string[] = []
  let slowest = 0
  for (let round = 0; round < 3; round++) {
    for (const [method, path] of [...WRITES, ['GET', '/api/files']] as const) {
      const started = performance.now()
      const response = await fetch(`${overDown.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'DELETE' || method === 'GET' ? undefined : '{"title":"x"}',
      })
      slowest = Math.max(slowest, performance.now() - started)
      statuses.push(`${response.status} ${response.headers.get(BACKEND_HEADER)}`)
    }
  }
  // Round robin over two servers both up by their checks: about every other request was sent to s1 first.
  expect(statuses).toEqual(Array(15).fill('200 s2'))
  expect(answered).toHaveLength(15)
  expect(new Set(answered)).toEqual(new Set([...WRITES, ['GET', '/api/files']].map(([method, path]) => `${method} ${path}`)))
  console.log(`refused connections: 15 requests over a down and a live server, all 200 from the live one; slowest ${slowest.toFixed(0)} ms`)
})
