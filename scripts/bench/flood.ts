import { rmSync } from 'node:fs'
import { measureRequests, percentile, slowFlood } from '../support/slow-clients'
import { freshDir, serve } from './support'

/** Authenticated GET throughput and latency, alone and during a flood of slow-header and slow-body clients. */
export async function floodImpact(binary: string) {
  const dataDir = freshDir('flood')
  const cli = (...args: string[]) =>
    Bun.spawnSync([binary, ...args, '--data', dataDir])
      .stdout.toString()
      .trim()
  cli('user', 'add', 'normal')
  cli('user', 'add', 'attacker')
  const token = cli('token', 'issue', 'normal')
  const attacker = cli('token', 'issue', 'attacker')
  const { proc, url } = await serve(binary, dataDir, { PDFSHARE_IDLE_TIMEOUT: '30' })
  const port = Number(new URL(url).port)
  const auth = { authorization: `Bearer ${token}` }
  const run = async () => {
    const started = performance.now()
    const latencies = await measureRequests(`${url}/api/files`, 2000, 16, auth)
    return {
      rps: (latencies.length / (performance.now() - started)) * 1000,
      p95: percentile(latencies, 95),
      failures: latencies.filter((l) => !Number.isFinite(l)).length,
    }
  }
  try {
    await run() // warm up
    const alone = await run()
    const headers = await slowFlood({ port, count: 1000, intervalMs: 1000, kind: 'headers' })
    const bodies = await slowFlood({ port, count: 50, intervalMs: 1000, kind: 'body', token: attacker })
    await Bun.sleep(500)
    const flooded = await run()
    headers.stop()
    bodies.stop()
    return { alone, flooded, slowConnections: 1050 }
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}
