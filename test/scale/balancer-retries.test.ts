import { afterAll, expect, test } from 'bun:test'
import type { Socket } from 'bun'
import { startLoadBalancer } from '../../scripts/support/load-balancer'

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

const servers = [dyingServer(), dyingServer()]
const balancer = await startLoadBalancer({ backends: servers.map((server) => `http://127.0.0.1:${server.port}`) })
afterAll(async () => {
  await balancer.stop()
  for (const server of servers) server.stop(true)
})

test('a write whose server died before answering is never sent to another one: the client gets a 502 and retries with its key', async () => {
  for (const [method, path] of [
    ['POST', '/api/files/upload'],
    ['PUT', '/api/files/abc'],
    ['PATCH', '/api/links/abc'],
    ['DELETE', '/api/files/abc'],
  ] as const) {
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
