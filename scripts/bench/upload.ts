import { readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { commandOf, freshDir, memoryOf, median, resetPeak, serve, serveRaw } from './support'

const MIB = 1024 * 1024
const HUNDRED_MIB = 100 * MIB

/** A data dir with `users` users and a token each, a 100 MiB PDF-shaped file, and a server to stop. */
export async function uploadSetup(binary: string, users: number, env: Record<string, string> = {}) {
  const dataDir = freshDir('upload')
  const file = join(dataDir, 'big.pdf')
  const bytes = new Uint8Array(HUNDRED_MIB - 4096) // leaves room for the multipart framing under the 100 MiB cap
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'))
  for (let i = 4096; i < bytes.length; i += 4096) bytes[i] = i & 0xff // not all zeros, not compressible to nothing
  await Bun.write(file, bytes)
  const cli = (...args: string[]) =>
    Bun.spawnSync([...commandOf(binary), ...args, '--data', dataDir])
      .stdout.toString()
      .trim()
  const tokens = Array.from({ length: users }, (_, i) => {
    cli('user', 'add', `bench${i}`)
    return cli('token', 'issue', `bench${i}`)
  })
  const server = await serve(binary, dataDir, env)
  // Warm up the upload path so one-time allocations do not count as upload cost.
  await curlUpload(`${server.url}/api/files/upload`, tokens[0]!, '', true)
  const stop = async () => {
    server.proc.kill('SIGTERM')
    await server.proc.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { dataDir, file, tokens, server, stop }
}

/**
 * curl, a real multipart client: the status it got. `warm` sends a tiny PDF from stdin instead of `file`; an empty
 * `token` sends none (a sender's upload through a file request).
 */
export async function curlUpload(url: string, token: string, file: string, warm = false): Promise<string> {
  const part = warm ? 'file=@-;filename=warm.pdf;type=application/pdf' : `file=@${file};type=application/pdf`
  const curl = Bun.spawn(
    ['curl', '-sS', '-o', '/dev/null', '-w', '%{http_code}', ...(token ? ['-H', `Authorization: Bearer ${token}`] : []), '-F', part, url],
    {
      stdin: warm ? new TextEncoder().encode('%PDF-1.7 warm') : 'ignore',
      stdout: 'pipe',
    },
  )
  const status = await new Response(curl.stdout).text()
  await curl.exited
  return status
}

/** `dd conv=fdatasync` of the same bytes, `count` at once: the disk's own speed for a durable copy. */
async function ddCopies(file: string, dir: string, count: number): Promise<number> {
  const started = performance.now()
  const copies = Array.from(
    { length: count },
    (_, i) => Bun.spawn(['dd', `if=${file}`, `of=${join(dir, `dd-${i}`)}`, 'bs=1M', 'conv=fdatasync'], { stderr: 'ignore' }).exited,
  )
  await Promise.all(copies)
  const seconds = (performance.now() - started) / 1000
  for (let i = 0; i < count; i++) rmSync(join(dir, `dd-${i}`), { force: true })
  return seconds
}

export type UploadRun = {
  seconds: number
  ddSeconds: number
  /** The server's peak RSS during the first big upload(s) after start, minus its RSS just before. */
  firstExtraPeak: number
  /** The same for a bare Bun.serve draining the same bodies: the runtime's own one-time growth. */
  rawFirstExtraPeak: number
  /** Median over the later rounds: what each upload costs once the runtime's pools have grown. */
  laterExtraPeak: number
  baselineRss: number
}

/**
 * `count` uploads of 100 MiB at once, each by its own user (the per-user limit allows 4 at a time), against
 * as many parallel `dd conv=fdatasync` of the same bytes. Extra peak RSS per round: the high-water mark
 * (reset before the round) minus the resident memory just before it. The first round after start is
 * reported apart, beside a bare Bun.serve reading the same bodies, because Bun's first big request body
 * grows its pools once (measured: ~25 MiB for a server that only drains the body). Median wall of `runs`.
 */
export async function concurrentUploads(binary: string, count: number, runs = 3): Promise<UploadRun> {
  const setup = await uploadSetup(binary, count)
  try {
    const pid = setup.server.proc.pid
    await Bun.sleep(200)
    const baselineRss = memoryOf(pid).rss
    const walls: number[] = []
    const dds: number[] = []
    const extras: number[] = []
    for (let run = 0; run < runs; run++) {
      dds.push(await ddCopies(setup.file, setup.dataDir, count))
      resetPeak(pid)
      const before = memoryOf(pid).rss
      const started = performance.now()
      const statuses = await Promise.all(setup.tokens.map((token) => curlUpload(`${setup.server.url}/api/files/upload`, token, setup.file)))
      walls.push((performance.now() - started) / 1000)
      extras.push(memoryOf(pid).peak - before)
      if (statuses.some((status) => status !== '201')) throw new Error(`uploads answered ${statuses.join(', ')}`)
      // Delete what was uploaded, so every round starts from the same disk state.
      for (const token of setup.tokens) await deleteAll(setup.server.url, token)
    }
    const rawFirstExtraPeak = await rawDrainExtraPeak(setup.file, count)
    return {
      seconds: median(walls),
      ddSeconds: median(dds),
      firstExtraPeak: extras[0]!,
      rawFirstExtraPeak,
      laterExtraPeak: median(extras.slice(1)),
      baselineRss,
    }
  } finally {
    await setup.stop()
  }
}

/** A fresh raw Bun.serve: its extra peak RSS while `count` curl uploads of `file` are drained at once. */
async function rawDrainExtraPeak(file: string, count: number): Promise<number> {
  const raw = await serveRaw()
  try {
    await curlUpload(`${raw.url}/drain`, '', '', true)
    await Bun.sleep(200)
    resetPeak(raw.proc.pid)
    const before = memoryOf(raw.proc.pid).rss
    await Promise.all(Array.from({ length: count }, () => curlUpload(`${raw.url}/drain`, '', file)))
    return memoryOf(raw.proc.pid).peak - before
  } finally {
    raw.proc.kill()
    await raw.proc.exited
  }
}

export async function deleteAll(url: string, token: string) {
  const headers = { authorization: `Bearer ${token}` }
  const { data } = (await (await fetch(`${url}/api/files?limit=100`, { headers })).json()) as { data: { id: string }[] }
  for (const file of data) await fetch(`${url}/api/files/${file.id}`, { method: 'DELETE', headers })
}

export type OverCap = { capBytes: number; readBytes: number; status: number; rawReadBytes: number }

/**
 * An upload over the cap sent chunked (no Content-Length, so it cannot be refused up front): how many bytes
 * the server took from its socket before it answered 413, beside a bare Bun.serve that stops reading a body
 * at the same cap (Bun's own read-ahead: it keeps receiving into its buffer until its high-water mark).
 */
export async function chunkedOverCap(binary: string, capBytes = 10 * MIB): Promise<OverCap> {
  const dataDir = freshDir('overcap')
  const cli = (...args: string[]) =>
    Bun.spawnSync([...commandOf(binary), ...args, '--data', dataDir])
      .stdout.toString()
      .trim()
  cli('user', 'add', 'bench')
  const token = cli('token', 'issue', 'bench')
  const server = await serve(binary, dataDir, { PDFSHARE_MAX_FILE_SIZE: String(capBytes) })
  const raw = await serveRaw()
  try {
    const ours = await socketBytesReadBy(server.proc.pid, () =>
      sendChunkedUntilAnswered(server.url, '/api/files/upload', token, capBytes * 5),
    )
    const bare = await socketBytesReadBy(raw.proc.pid, () =>
      sendChunkedUntilAnswered(raw.url, `/drain?cap=${capBytes}`, token, capBytes * 5),
    )
    return { capBytes, readBytes: ours.bytes, status: ours.status, rawReadBytes: bare.bytes }
  } finally {
    raw.proc.kill()
    server.proc.kill('SIGTERM')
    await Promise.all([raw.proc.exited, server.proc.exited])
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * The bytes process `pid` takes from sockets while `send` runs, counted from its own receive calls with
 * strace (Bun reads sockets with recvfrom, which /proc/PID/io does not count), so neither side's socket
 * buffers blur the number. strace slows the server down; the byte count does not depend on speed.
 */
async function socketBytesReadBy(pid: number, send: () => Promise<number>): Promise<{ bytes: number; status: number }> {
  const traceFile = join(freshDir('strace'), 'strace.out')
  const strace = Bun.spawn(
    ['strace', '-f', '-qq', '-e', 'trace=recvfrom,recvmsg', '-e', 'signal=none', '-o', traceFile, '-p', String(pid)],
    { stderr: 'pipe' },
  )
  try {
    await Bun.sleep(500) // strace attaches to every thread
    const status = await send()
    await Bun.sleep(200)
    strace.kill('SIGINT')
    await strace.exited
    let bytes = 0
    const received = /^\d+\s+(?:recv(?:from|msg)\(|<\.\.\. recv(?:from|msg) resumed>).*\)\s+=\s+(\d+)/gm
    for (const match of readFileSync(traceFile, 'utf8').matchAll(received)) bytes += Number(match[1])
    return { bytes, status }
  } finally {
    strace.kill()
    rmSync(dirname(traceFile), { recursive: true, force: true })
  }
}

/** Writes a chunked multipart upload of up to `limit` bytes over a raw socket until the server answers. */
async function sendChunkedUntilAnswered(url: string, path: string, token: string, limit: number): Promise<number> {
  const boundary = 'benchboundary'
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port) })
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let answer = ''
  let status = 0
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)
      if (status) resolve()
    })
    socket.on('close', () => resolve())
    socket.on('error', () => resolve())
  })
  const write = async (data: string | Uint8Array) => {
    if (!socket.write(data)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), answered])
  }
  const chunk = async (bytes: Uint8Array) =>
    write(Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]))
  await write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
  )
  await chunk(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    ),
  )
  const piece = Buffer.alloc(64 * 1024, 0x20)
  for (let sent = 0; sent < limit && status === 0 && !socket.destroyed; sent += piece.length) await chunk(piece)
  await Promise.race([answered, Bun.sleep(5000)])
  socket.destroy()
  return status
}
