import { rmSync } from 'node:fs'
import { median, freshDir, memoryOf } from './support'

/**
 * Time from exec to the first 200 of /api/health, on a new data dir (first start) and on an existing one,
 * and the server's resident memory once it has been idle for a second after that first answer.
 */
export async function coldStart(binary: string, runs = 7): Promise<{ firstStartMs: number; warmDataMs: number; idleRss: number }> {
  const idle: number[] = []
  const measure = async (dataDir: string) => {
    const started = performance.now()
    const proc = Bun.spawn([binary, 'serve', '--port', '39123', '--host', '127.0.0.1', '--data', dataDir], {
      stdout: 'ignore',
      stderr: 'ignore',
    })
    for (;;) {
      try {
        const response = await fetch('http://127.0.0.1:39123/api/health')
        if (response.status === 200) break
      } catch {
        await Bun.sleep(1)
      }
    }
    const elapsed = performance.now() - started
    if (idle.length < 3) {
      await Bun.sleep(1000)
      idle.push(memoryOf(proc.pid).rss)
    }
    proc.kill('SIGTERM')
    await proc.exited
    return elapsed
  }
  const first: number[] = []
  const warm: number[] = []
  for (let i = 0; i < runs; i++) {
    const dir = freshDir('cold')
    first.push(await measure(dir))
    warm.push(await measure(dir))
    rmSync(dir, { recursive: true, force: true })
  }
  return { firstStartMs: median(first), warmDataMs: median(warm), idleRss: median(idle) }
}
