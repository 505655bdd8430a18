/**
 * Podman for the container tests, as it works on these machines (docs/container.md, Tested): the runc runtime
 * (crun cannot set the limits here) with both ulimits given, and a base image built from Debian's packages,
 * since no image can be pulled.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './process'

export const PODMAN = ['podman', '--runtime', 'runc']
/** What `podman run` needs besides its own arguments. */
export const RUN_LIMITS = ['--ulimit', 'nofile=4096:4096', '--ulimit', 'nproc=4096:4096']
/** The test's base image: Debian bookworm's minbase, trimmed like Debian's -slim images. */
export const TEST_BASE = 'localhost/pdfshare-test-base:bookworm'
/** The base's tarball is kept between runs: mmdebstrap takes 25–90 s, importing it 10 s. */
const BASE_TARBALL = join(ROOT, 'node_modules', '.cache', 'pdfshare-container', 'debian-bookworm-minbase.tar')

/** Runs podman to its end; its stdout, or an error with its stderr. */
export async function podman(
  args: string[],
  options: { allowFailure?: boolean } = {},
): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([...PODMAN, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0 && !options.allowFailure) throw new Error(`podman ${args.join(' ')} exited with ${code}:\n${err}`)
  return { code, out, err }
}

/**
 * Runs Debian's podman-compose (1.0.3) to its end, with podman's runtime and limits as above and images built
 * on TEST_BASE in the docker format (which keeps the HEALTHCHECK).
 */
export async function podmanCompose(project: string, file: string, args: string[]): Promise<{ out: string; err: string }> {
  const proc = Bun.spawn(
    [
      'podman-compose',
      '-p',
      project,
      '-f',
      file,
      '--podman-args',
      PODMAN.slice(1).join(' '),
      '--podman-build-args',
      `--format docker --build-arg BASE=${TEST_BASE}`,
      '--podman-run-args',
      RUN_LIMITS.join(' '),
      ...args,
    ],
    { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' },
  )
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`podman-compose ${args.join(' ')} exited with ${code}:\n${out.slice(-2000)}${err.slice(-2000)}`)
  return { out, err }
}

/** Makes TEST_BASE exist: already in podman's store, imported from the kept tarball, or built with mmdebstrap. */
export async function ensureTestBase(log: (line: string) => void): Promise<void> {
  if ((await podman(['image', 'exists', TEST_BASE], { allowFailure: true })).code === 0) return
  if (!existsSync(BASE_TARBALL)) {
    mkdirSync(join(BASE_TARBALL, '..'), { recursive: true })
    const partial = `${BASE_TARBALL}.partial`
    rmSync(partial, { force: true })
    log('building the base image with mmdebstrap (bookworm, minbase)…')
    const started = performance.now()
    const proc = Bun.spawn(
      [
        'mmdebstrap',
        '--variant=minbase',
        '--format=tar',
        // What Debian's -slim images leave out too.
        '--dpkgopt=path-exclude=/usr/share/doc/*',
        '--dpkgopt=path-exclude=/usr/share/man/*',
        '--dpkgopt=path-exclude=/usr/share/info/*',
        '--dpkgopt=path-exclude=/usr/share/locale/*',
        'bookworm',
        partial,
      ],
      { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' },
    )
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
    if (code !== 0) throw new Error(`mmdebstrap failed (${code}):\n${err.slice(-2000)}`)
    renameSync(partial, BASE_TARBALL)
    log(`mmdebstrap took ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  await podman(['import', BASE_TARBALL, TEST_BASE])
}

/** A TCP port nothing listens on right now (for `-p 127.0.0.1:PORT:3000`). */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) })
  const port = probe.port ?? 0
  probe.stop(true)
  return port
}
