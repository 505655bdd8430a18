import { join } from 'node:path'

/** A message the test SMTP server accepted: its envelope and its raw text. */
export type Received = { from: string; to: string[]; secure: boolean; data: string }

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/**
 * Starts test/support/smtp-server.mjs (smtp-server under Node) and collects what it receives. `tls`: its key and
 * certificate paths (STARTTLS and AUTH), or none for a plain server.
 */
export async function startSmtpServer(options: { tls?: { key: string; cert: string }; temporaryRefusals?: number; holdMs?: number } = {}) {
  const port = freePort()
  const proc = Bun.spawn(
    [
      'node',
      join(import.meta.dir, 'smtp-server.mjs'),
      String(port),
      options.tls?.key ?? '-',
      options.tls?.cert ?? '-',
      String(options.temporaryRefusals ?? 0),
      String(options.holdMs ?? 0),
    ],
    { stdout: 'pipe', stderr: 'inherit' },
  )
  const received: Received[] = []
  /** The recipients of messages being held (holdMs), in the order the holds began. */
  const holding: string[][] = []
  const { promise: started, resolve: ready } = Promise.withResolvers<void>()
  void (async () => {
    let buffer = ''
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      buffer += new TextDecoder().decode(chunk)
      let newline = buffer.indexOf('\n')
      while (newline !== -1) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        if (line === 'ready') ready()
        else if (line.startsWith('{"holding"')) holding.push(JSON.parse(line).holding)
        else if (line.startsWith('{')) received.push(JSON.parse(line))
        newline = buffer.indexOf('\n')
      }
    }
  })()
  await started
  return {
    port,
    received,
    holding,
    /** Resolves with the first message to `to`, or throws after `ms`. */
    async next(to: string, ms = 10_000): Promise<Received> {
      const deadline = Date.now() + ms
      while (Date.now() < deadline) {
        const found = received.find((message) => message.to.includes(to))
        if (found) return found
        await Bun.sleep(25)
      }
      throw new Error(`no mail to ${to} within ${ms} ms (received: ${received.map((one) => one.to).join(', ')})`)
    },
    stop: () => proc.kill(),
  }
}
