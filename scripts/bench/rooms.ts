import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { makePdf } from '../support/pdf'
import { commandOf, freshDir, median, memoryOf, resetPeak, ROOT, serve } from './support'

export type RoomResult = {
  /** Median time of `GET <link URL>` (the index) of a 200-document room, loopback, to the last byte. */
  indexMs: number
  indexBytes: number
  /** `<link URL>/download` of 50 × 2 MB PDFs read by curl, against `cat` of the same 50 files. */
  zipMs: number
  catMs: number
  zipBytes: number
  /** The server's peak resident memory during the ZIP, above what it held before it. */
  zipPeakBytes: number
  baselineBytes: number
}

const INDEX_DOCUMENTS = 200
const ZIP_DOCUMENTS = 50
const TWO_MB = 2 * 1024 * 1024

/**
 * A room's reader side (docs/rooms.md): the index page of a 200-document room (server time: the median of 30
 * requests from loopback, to the last byte, no view counted: the bench client sends no User-Agent), and the
 * streamed ZIP of 50 × 2 MB PDFs against `cat` of the same bytes, with the server's peak memory above its
 * baseline while it streams (a copy of the whole would show as 100 MB).
 */
export async function roomBench(binary: string): Promise<RoomResult> {
  const dataDir = freshDir('rooms')
  const cli = (...args: string[]) =>
    Bun.spawnSync([...commandOf(binary), ...args, '--data', dataDir])
      .stdout.toString()
      .trim()
  cli('user', 'add', 'bench')
  const token = cli('token', 'issue', 'bench')
  const ours = await serve(binary, dataDir, { PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_DRAW_AHEAD: 'false' })
  const auth = { authorization: `Bearer ${token}` }
  const upload = async (bytes: Uint8Array<ArrayBuffer>, name: string) => {
    const form = new FormData()
    form.append('file', new File([bytes], name, { type: 'application/pdf' }))
    const response = await fetch(`${ours.url}/api/files/upload`, { method: 'POST', headers: auth, body: form })
    if (!response.ok) throw new Error(`upload: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: string } }).data.id
  }
  const room = async (name: string, ids: string[]) => {
    const items = ids.map((fileId, i) => ({ fileId, folder: `Part ${1 + Math.floor(i / 20)}` }))
    const response = await fetch(`${ours.url}/api/rooms`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name, items }),
    })
    if (!response.ok) throw new Error(`room: ${response.status} ${await response.text()}`)
    return `${ours.url}${new URL(((await response.json()) as { data: { shareUrl: string } }).data.shareUrl).pathname}`
  }
  try {
    const small: string[] = []
    for (let i = 0; i < INDEX_DOCUMENTS; i++) small.push(await upload(makePdf({ text: () => `Document ${i}` }), `doc-${i}.pdf`))
    const indexUrl = await room('Index bench', small)
    const runs: number[] = []
    let indexBytes = 0
    for (let i = 0; i < 33; i++) {
      const started = performance.now()
      const response = await fetch(indexUrl)
      indexBytes = (await response.arrayBuffer()).byteLength
      if (response.status !== 200) throw new Error(`index: ${response.status}`)
      if (i >= 3) runs.push(performance.now() - started) // the first ones warm the path
    }

    const sourceDir = join(dataDir, 'zip-sources')
    const big: string[] = []
    const paths: string[] = []
    for (let i = 0; i < ZIP_DOCUMENTS; i++) {
      const bytes = makePdf({ text: () => `Big ${i}`, paddingBytes: TWO_MB })
      const path = join(sourceDir, `big-${i}.pdf`)
      await Bun.write(path, bytes)
      paths.push(path)
      big.push(await upload(bytes, `big-${i}.pdf`))
    }
    const zipUrl = `${await room('ZIP bench', big)}/download`
    const timed = (command: string[]) => {
      const started = performance.now()
      const result = Bun.spawnSync(command)
      if (result.exitCode !== 0) throw new Error(`${command.join(' ')} failed: ${result.stderr}`)
      return { ms: performance.now() - started, out: result.stdout.toString() }
    }
    const cat = ['sh', '-c', `cat ${paths.map((p) => `'${p}'`).join(' ')} > /dev/null`]
    timed(cat)
    const baseline = memoryOf(ours.proc.pid).rss
    resetPeak(ours.proc.pid)
    const zip = timed(['curl', '-sS', '-o', '/dev/null', '-w', '%{size_download}', zipUrl])
    const peak = memoryOf(ours.proc.pid).peak
    const catRuns = [timed(cat).ms, timed(cat).ms, timed(cat).ms]
    return {
      indexMs: median(runs),
      indexBytes,
      zipMs: zip.ms,
      catMs: median(catRuns),
      zipBytes: Number(zip.out),
      zipPeakBytes: Math.max(0, peak - baseline),
      baselineBytes: baseline,
    }
  } finally {
    ours.proc.kill('SIGTERM')
    await ours.proc.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.main) console.log(await roomBench(join(ROOT, 'dist', 'pdfshare')))
