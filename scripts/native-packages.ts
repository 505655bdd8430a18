/**
 * The native packages of another platform, for a cross-compiled binary (`bun run build:arm64`).
 *
 * `bun install` installs only the host's optional dependencies (the x64 builds of libSQL's addon, sharp and
 * libvips on an x64 machine). The arm64 builds are fetched at build time with `npm pack`, exactly at the
 * versions bun.lock pins, and each tarball's SHA-512 is checked against the lock's integrity before it is
 * unpacked into node_modules/.cache/pdfshare-native/<package>@<version>/ (kept between builds, gone with
 * node_modules). The lock stays the one source of versions: `bun update sharp` moves the arm64 build too.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
const cacheDir = join(root, 'node_modules', '.cache', 'pdfshare-native')

/** A platform the binary can be built for, and the native packages it needs (by role, not name). */
export type NativeTarget = {
  /** Bun's compile target, e.g. bun-linux-arm64. */
  bun: string
  /** The suffix of the binary's name in dist/ (pdfshare-linux-arm64). */
  name: string
  libsql: string
  sharp: string
  libvips: string
}

export const LINUX_ARM64: NativeTarget = {
  bun: 'bun-linux-arm64',
  name: 'linux-arm64',
  libsql: '@libsql/linux-arm64-gnu',
  sharp: '@img/sharp-linux-arm64',
  libvips: '@img/sharp-libvips-linux-arm64',
}

/** Where each of the target's packages is unpacked (its package folder), fetched first when not yet cached. */
export async function nativePackages(target: NativeTarget): Promise<{ libsql: string; sharp: string; libvips: string }> {
  const lock = readFileSync(join(root, 'bun.lock'), 'utf8')
  return {
    libsql: await unpacked(target.libsql, lock),
    sharp: await unpacked(target.sharp, lock),
    libvips: await unpacked(target.libvips, lock),
  }
}

/** The package's version and integrity as bun.lock records them. */
export function lockedVersion(name: string, lock: string): { version: string; integrity: string } {
  const quoted = name.replace(/[/@.-]/g, (c) => `\\${c}`)
  const entry = new RegExp(`"${quoted}": \\["${quoted}@([^"]+)", "[^"]*", \\{[^\\n]*\\}, "(sha512-[^"]+)"\\]`).exec(lock)
  if (!entry) throw new Error(`${name} is not in bun.lock (it should be, as an optional dependency of libsql or sharp)`)
  return { version: entry[1]!, integrity: entry[2]! }
}

async function unpacked(name: string, lock: string): Promise<string> {
  const { version, integrity } = lockedVersion(name, lock)
  const target = join(cacheDir, `${name.replace('/', '+')}@${version}`)
  if (existsSync(join(target, 'package.json'))) return target
  mkdirSync(cacheDir, { recursive: true })
  const work = mkdtempSync(join(cacheDir, '.fetch-'))
  try {
    const pack = Bun.spawnSync(['npm', 'pack', '--silent', '--pack-destination', work, `${name}@${version}`], { cwd: work, stderr: 'pipe' })
    if (pack.exitCode !== 0) throw new Error(`npm pack ${name}@${version} failed: ${pack.stderr.toString().trim()}`)
    const tarball = join(work, pack.stdout.toString().trim().split('\n').pop()!)
    const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`
    if (digest !== integrity) throw new Error(`${name}@${version}: the registry's tarball does not match bun.lock's integrity`)
    const extract = Bun.spawnSync(['tar', '-xzf', tarball, '-C', work], { stderr: 'pipe' })
    if (extract.exitCode !== 0) throw new Error(`unpacking ${tarball} failed: ${extract.stderr.toString().trim()}`)
    // npm tarballs hold one folder, `package/`; renamed into place whole, so a cut build leaves no half a package.
    renameSync(join(work, 'package'), target)
    return target
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
