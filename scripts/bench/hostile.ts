import { readFileSync } from 'node:fs'
import { contentStreamBomb, formPatternCycle, hugeImagePage, selfDrawingForm } from '../support/hostile-pdfs'
import { sharedServer } from './share'
import { memoryOf } from './support'

const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)

/**
 * PDFs built to hurt a renderer (scripts/support/hostile-pdfs.ts), on the compiled binary with its default limits
 * (5 s, 512 MB per renderer). First each alone: time until the answer, and the renderer's peak RSS. Then all
 * of them at once while a client asks `/api/health` every 10 ms: its latencies and the server's own RSS.
 */
export async function hostilePreviews(binary: string) {
  const server = await sharedServer(binary)
  const cases = {
    'self-drawing form': selfDrawingForm(),
    'form/pattern cycle': formPatternCycle(),
    '256 MiB content stream': contentStreamBomb(256),
    '12k × 12k image': hugeImagePage(),
  }
  try {
    const alone: { name: string; ms: number; placeholder: boolean; rendererPeak: number }[] = []
    for (const [name, pdf] of Object.entries(cases)) {
      const link = await server.upload(pdf)
      let rendererPeak = 0
      const watch = setInterval(() => {
        for (const child of childrenOf(server.pid)) {
          try {
            const { rss } = memoryOf(child)
            if (Number.isFinite(rss)) rendererPeak = Math.max(rendererPeak, rss) // a process being reaped has none
          } catch {
            // killed between the listing and the read
          }
        }
      }, 5)
      const started = performance.now()
      const response = await fetch(`${link}/preview.png`)
      await response.arrayBuffer()
      clearInterval(watch)
      alone.push({
        name,
        ms: performance.now() - started,
        placeholder: response.headers.get('etag')?.endsWith('-0"') ?? false,
        rendererPeak,
      })
    }

    const links: string[] = []
    for (const pdf of [...Object.values(cases), formPatternCycle()]) links.push(await server.upload(pdf))
    const baseline = memoryOf(server.pid).rss
    let serverPeak = baseline
    const healthMs: number[] = []
    let done = false
    const renders = Promise.all(links.map(async (link) => (await fetch(`${link}/preview.png`)).arrayBuffer())).finally(() => (done = true))
    while (!done) {
      const started = performance.now()
      await (await fetch(`${server.url}/api/health`)).arrayBuffer()
      healthMs.push(performance.now() - started)
      serverPeak = Math.max(serverPeak, memoryOf(server.pid).rss)
      await Bun.sleep(10)
    }
    await renders
    healthMs.sort((a, b) => a - b)
    return {
      alone,
      concurrent: links.length,
      healthChecks: healthMs.length,
      healthP99: healthMs[Math.floor(healthMs.length * 0.99)]!,
      healthMax: healthMs.at(-1)!,
      serverGrowth: serverPeak - baseline,
    }
  } finally {
    await server.stop()
  }
}
