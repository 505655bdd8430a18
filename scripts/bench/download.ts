import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { commandOf, freshDir, median, ROOT, serve, serveRaw } from './support'
import { wrk } from './wrk'

const HUNDRED_MIB = 100 * 1024 * 1024
const SERVER_CPU = 0
const LOAD_CPU = 1

export type DownloadResult = {
  catMs: number
  rawMs: number
  oursMs: number
  rangeRaw: number
  rangeOurs: number
}

/**
 * A 100 MiB PDF read by curl from /s/:slug/file against `cat file > /dev/null` (the page cache's own speed)
 * and against a raw Bun.serve sending the same file; then 64 KiB range requests (what the viewer makes)
 * per second against the raw server answering the same Range header. Servers pinned to core 0.
 */
export async function downloads(binary: string, runs = 5): Promise<DownloadResult> {
  const dataDir = freshDir('download')
  const file = join(dataDir, 'big.pdf')
  const bytes = new Uint8Array(HUNDRED_MIB - 4096)
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'))
  await Bun.write(file, bytes)
  const cli = (...args: string[]) =>
    Bun.spawnSync([...commandOf(binary), ...args, '--data', dataDir])
      .stdout.toString()
      .trim()
  cli('user', 'add', 'bench')
  const token = cli('token', 'issue', 'bench')
  const ours = await serve(binary, dataDir, { PDFSHARE_RATE_LIMIT_SHARE: '100000000' }, SERVER_CPU)
  const { proc: raw, url: rawUrl } = await serveRaw(file, SERVER_CPU)
  try {
    const curl = Bun.spawnSync([
      'curl',
      '-sS',
      '-H',
      `Authorization: Bearer ${token}`,
      '-F',
      `file=@${file};type=application/pdf`,
      `${ours.url}/api/files/upload`,
    ])
    const { data } = JSON.parse(curl.stdout.toString()) as { data: { shareUrl: string } }
    const oursUrl = `${ours.url}${new URL(data.shareUrl).pathname}/file`

    const timed = (command: string[]) => {
      const started = performance.now()
      const result = Bun.spawnSync(command)
      if (result.exitCode !== 0) throw new Error(`${command.join(' ')} failed: ${result.stderr}`)
      return performance.now() - started
    }
    const download = (url: string) => ['taskset', '-c', String(LOAD_CPU), 'curl', '-sS', '-o', '/dev/null', url]
    const cat = ['taskset', '-c', String(LOAD_CPU), 'sh', '-c', `cat '${file}' > /dev/null`]
    const catRuns: number[] = []
    const rawRuns: number[] = []
    const oursRuns: number[] = []
    timed(download(oursUrl)) // warm the page cache and the path
    for (let i = 0; i < runs; i++) {
      catRuns.push(timed(cat))
      rawRuns.push(timed(download(`${rawUrl}/file`)))
      oursRuns.push(timed(download(oursUrl)))
    }

    // 64 KiB range reads scattered over the file, as the viewer's page requests are.
    const rangeScript = `counter = 0
request = function()
  counter = counter + 1
  local start = ((counter * 7919) % 1500) * 65536
  wrk.headers["Range"] = "bytes=" .. start .. "-" .. (start + 65535)
  return wrk.format()
end`
    const range = (url: string) => wrk({ url, connections: 16, seconds: 4, cpu: LOAD_CPU, script: rangeScript })
    range(oursUrl)
    const rangeRawRuns: number[] = []
    const rangeOursRuns: number[] = []
    for (let i = 0; i < 2; i++) {
      rangeRawRuns.push(range(`${rawUrl}/file`).rps)
      rangeOursRuns.push(range(oursUrl).rps)
    }
    return {
      catMs: median(catRuns),
      rawMs: median(rawRuns),
      oursMs: median(oursRuns),
      rangeRaw: median(rangeRawRuns),
      rangeOurs: median(rangeOursRuns),
    }
  } finally {
    raw.kill()
    ours.proc.kill('SIGTERM')
    await Promise.all([raw.exited, ours.proc.exited])
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.main) console.log(await downloads(join(ROOT, 'dist', 'pdfshare')))
