import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const ROOT = join(import.meta.dir, '..', '..')
export const BINARY = join(ROOT, 'dist', 'pdfshare')

export function ensureBinary(): string {
  if (!existsSync(BINARY)) {
    const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' })
    if (build.exitCode !== 0) throw new Error('build failed')
  }
  return BINARY
}

export const freshDir = (label: string) => mkdtempSync(join(tmpdir(), `pdfshare-bench-${label}-`))

/** Resident memory of a process from /proc, in bytes: the current value and the high-water mark. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

/**
 * Starts `pdfshare serve` on a free port and resolves once it says where it listens. `cpu` pins the server
 * to one core (taskset), so a load generator on the other core does not compete with it.
 */
export async function serve(binary: string, dataDir: string, env: Record<string, string> = {}, cpu?: number) {
  const pin = cpu === undefined ? [] : ['taskset', '-c', String(cpu)]
  const proc = Bun.spawn([...pin, ...commandOf(binary), 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], {
    env: { PATH: process.env.PATH ?? '', PDFSHARE_RATE_LIMIT_API: '0', ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  let stderr = ''
  const decoder = new TextDecoder()
  for await (const chunk of proc.stderr) {
    stderr += decoder.decode(chunk)
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)
    if (match) return { proc, url: `http://127.0.0.1:${match[1]}` }
  }
  throw new Error(`server did not start: ${stderr}`)
}

/** `BENCH_SOURCE=1` runs the server from source (`bun src/main.ts`) for quick profiling rounds without a build. */
export function commandOf(binary: string): string[] {
  return process.env.BENCH_SOURCE === '1' ? ['bun', join(ROOT, 'src', 'main.ts')] : [binary]
}

/** A new data dir with the user `bench` and an API token of theirs, made through the CLI of `binary`. */
export function benchAccount(binary: string, label: string): { dataDir: string; token: string } {
  const dataDir = freshDir(label)
  const cli = (...args: string[]) =>
    Bun.spawnSync([...commandOf(binary), ...args, '--data', dataDir])
      .stdout.toString()
      .trim()
  cli('user', 'add', 'bench')
  return { dataDir, token: cli('token', 'issue', 'bench') }
}

/** Starts the raw Bun.serve reference (raw-server.ts), optionally pinned to `cpu`, serving `file` at /file. */
export async function serveRaw(file?: string, cpu?: number): Promise<{ proc: Bun.Subprocess<'ignore', 'pipe', 'inherit'>; url: string }> {
  const pin = cpu === undefined ? [] : ['taskset', '-c', String(cpu)]
  const proc = Bun.spawn([...pin, 'bun', join(ROOT, 'scripts', 'bench', 'raw-server.ts'), '0', ...(file ? [file] : [])], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of proc.stdout) {
    text += decoder.decode(chunk)
    const match = /listening on (\d+)/.exec(text)
    if (match) return { proc, url: `http://127.0.0.1:${match[1]}` }
  }
  throw new Error(`raw server did not start: ${text}`)
}

/** Resets a process's peak RSS (VmHWM) to its current RSS, so the next peak belongs to what follows. */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5')
}
