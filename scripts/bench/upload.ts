import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { freshDir, memoryOf, serve } from './support'

const HUNDRED_MIB = 100 * 1024 * 1024

/**
 * One 100 MiB upload through curl (a real multipart client) against the binary; reports the server's extra
 * peak RSS (high-water mark after the upload minus resident memory before it) and the wall time.
 */
export async function uploadOf100MiB(binary: string): Promise<{ extraPeakBytes: number; seconds: number; baselineRss: number }> {
  const dataDir = freshDir('upload')
  const file = join(dataDir, 'big.pdf')
  const bytes = new Uint8Array(HUNDRED_MIB)
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'))
  await Bun.write(file, bytes)

  const cli = (...args: string[]) => Bun.spawnSync([binary, ...args, '--data', dataDir]).stdout.toString().trim()
  cli('user', 'add', 'bench')
  const token = cli('token', 'issue', 'bench')
  const { proc, url } = await serve(binary, dataDir)
  try {
    // Warm up the path with a small upload so one-time allocations do not count as upload cost.
    await fetch(`${url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: multipartOf(new Uint8Array(new TextEncoder().encode('%PDF-1.7 warm'))) })
    await Bun.sleep(200)
    const before = memoryOf(proc.pid)
    const started = performance.now()
    const curl = Bun.spawnSync(['curl', '-sS', '-o', '/dev/null', '-w', '%{http_code}', '-H', `Authorization: Bearer ${token}`, '-F', `file=@${file};type=application/pdf`, `${url}/api/files/upload`])
    const seconds = (performance.now() - started) / 1000
    if (curl.stdout.toString() !== '201') throw new Error(`upload answered ${curl.stdout} ${curl.stderr}`)
    const after = memoryOf(proc.pid)
    return { extraPeakBytes: after.peak - before.rss, seconds, baselineRss: before.rss }
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function multipartOf(bytes: Uint8Array): FormData {
  const data = new FormData()
  data.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'warm.pdf', { type: 'application/pdf' }))
  return data
}
