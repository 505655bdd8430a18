import { afterAll } from 'bun:test'
export { eventually } from './eventually'

export type Received = { path: string; headers: Record<string, string>; body: string; at: number }

/** What the receiver answers a request with; the default answers 204 at once. */
export type Responder = (request: Received, index: number) => Response | Promise<Response>

/**
 * A real webhook receiver on 127.0.0.1 (Bun.serve on a free port) that keeps every request it gets, and
 * answers as the test says (`respond`: a status, a delay, a redirect…). Stopped after the test file.
 */
export function startReceiver(respond: Responder = () => new Response(null, { status: 204 })) {
  const received: Received[] = []
  const state = { respond }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 30,
    async fetch(request) {
      const entry: Received = {
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
        at: Date.now(),
      }
      received.push(entry)
      return state.respond(entry, received.length - 1)
    },
  })
  afterAll(() => server.stop(true))
  return {
    /** http://127.0.0.1:<port><path> */
    url: (path = '/hook') => `http://127.0.0.1:${server.port}${path}`,
    port: server.port as number,
    received,
    /** Requests to one path, in arrival order. */
    at: (path = '/hook') => received.filter((entry) => entry.path === path),
    respondWith(responder: Responder) {
      state.respond = responder
    },
    stop: () => server.stop(true),
  }
}
