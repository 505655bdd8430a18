import { connect, type Socket } from 'node:net'

/**
 * Opens `count` connections that each send the start of a request and then one more byte every
 * `intervalMs`, never finishing: headers (slowloris) or an upload body.
 */
export async function slowFlood(options: {
  port: number
  count: number
  intervalMs: number
  kind: 'headers' | 'body'
  token?: string
}): Promise<{ stop: () => void; open: () => number }> {
  const sockets: Socket[] = []
  const timers: Timer[] = []
  await Promise.all(
    Array.from(
      { length: options.count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(options.port, '127.0.0.1', () => {
            socket.write(
              options.kind === 'headers'
                ? 'GET /api/health HTTP/1.1\r\nHost: a\r\nX-Slow: '
                : `POST /api/files/upload HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${options.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000000\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
            )
            timers.push(setInterval(() => socket.writable && socket.write('x'), options.intervalMs))
            resolve()
          })
          socket.on('error', () => resolve())
          sockets.push(socket)
        }),
    ),
  )
  return {
    stop: () => {
      for (const timer of timers) clearInterval(timer)
      for (const socket of sockets) socket.destroy()
    },
    open: () => sockets.filter((socket) => !socket.destroyed && socket.readyState === 'open').length,
  }
}

/** `total` GETs with `concurrency` in flight; returns each latency in ms (Infinity for a failure). */
export async function measureRequests(
  url: string,
  total: number,
  concurrency: number,
  headers: Record<string, string> = {},
): Promise<number[]> {
  const latencies: number[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++
        const started = performance.now()
        try {
          const response = await fetch(url, { headers, signal: AbortSignal.timeout(5000) })
          await response.arrayBuffer()
          latencies.push(response.ok ? performance.now() - started : Infinity)
        } catch {
          latencies.push(Infinity)
        }
      }
    }),
  )
  return latencies
}

export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!
