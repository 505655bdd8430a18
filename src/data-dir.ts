import { chmod, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'

/** Everything pdfshare keeps lives under one data dir (contract §1). */
export type DataDirLayout = {
  root: string
  /** The PDFs, by blob key. */
  blobs: string
  /** Uploads in flight; anything here at start-up is a leftover of a crash or kill. */
  tmp: string
  /** Rendered share-page previews (cache; safe to delete). */
  previews: string
  /** The generated HS256 secret when PDFSHARE_JWT_SECRET is not set (mode 0600). */
  secretFile: string
  /** The id this data dir shares with its database (see data-dir-id.ts). */
  idFile: string
  /** Blobs no row pointed at, moved aside by the start-up sweep instead of being deleted. */
  orphans: string
}

export function layoutOf(root: string): DataDirLayout {
  return {
    root,
    blobs: join(root, 'blobs'),
    tmp: join(root, 'tmp'),
    previews: join(root, 'previews'),
    secretFile: join(root, 'jwt-secret'),
    idFile: join(root, 'data-dir-id'),
    orphans: join(root, 'orphans'),
  }
}

/** Where the rendered preview of a blob is cached; `.failed` marks a blob PDFium could not render. */
export function previewPathOf(layout: DataDirLayout, blobKey: string, kind: 'png' | 'failed' = 'png'): string {
  return join(layout.previews, `${blobKey}.${kind}`)
}

/** Drops the cached preview of a blob; called whenever the blob itself goes. */
export async function discardPreview(layout: DataDirLayout, blobKey: string): Promise<void> {
  await rm(previewPathOf(layout, blobKey), { force: true })
  await rm(previewPathOf(layout, blobKey, 'failed'), { force: true })
}

/**
 * Creates the data dir and its folders (owner-only, since they hold everyone's PDFs and the password hashes).
 * A data dir that already exists open to other users (`mkdir -p` under umask 022, a Docker volume, systemd's
 * StateDirectory default 0755) is tightened to 0700: nothing in it is meant for anyone else. Returns the
 * lines to tell the operator.
 */
export async function prepareDataDir(layout: DataDirLayout): Promise<string[]> {
  for (const dir of [layout.root, layout.blobs, layout.tmp, layout.previews]) {
    await mkdir(dir, { recursive: true, mode: 0o700 })
  }
  const mode = (await stat(layout.root)).mode & 0o777
  if ((mode & 0o077) === 0) return []
  const was = `mode 0${mode.toString(8)}`
  try {
    await chmod(layout.root, 0o700)
    return [`the data dir ${layout.root} was open to other users (${was}); changed it to 0700`]
  } catch (error) {
    // Not ours to change (e.g. owned by root): the files inside are still created 0600.
    return [`warning: the data dir ${layout.root} is open to other users (${was}) and could not be changed to 0700 (${(error as NodeJS.ErrnoException).code}); files in it are created 0600`]
  }
}

/**
 * The embedded database and its WAL and shared-memory files, owner-only. New ones are already (umask 077 in
 * main.ts); this covers files created by an earlier version or another tool, and in-process callers.
 */
export async function restrictDatabaseFiles(databaseUrl: string): Promise<void> {
  if (!databaseUrl.startsWith('file:')) return
  const path = databaseUrl.slice('file:'.length).replace(/\?.*$/, '')
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const mode = await stat(file).then((info) => info.mode & 0o777, () => undefined)
    if (mode !== undefined && mode & 0o077) await chmod(file, 0o600)
  }
}

/**
 * The signing secret: the configured one, else the one stored in the data dir, else a new random one
 * written there with mode 0600. `created` tells the caller this is a first start.
 */
export async function loadSigningSecret(layout: DataDirLayout, configured: string | undefined): Promise<{ secret: string; created: boolean }> {
  if (configured) return { secret: configured, created: false }
  try {
    const stored = (await readFile(layout.secretFile, 'utf8')).trim()
    if (Buffer.byteLength(stored) < 32) throw new Error(`the secret in ${layout.secretFile} is shorter than 32 bytes; delete it to generate a new one (all tokens become invalid)`)
    const mode = (await stat(layout.secretFile)).mode & 0o777
    if (mode & 0o077) await chmod(layout.secretFile, 0o600)
    return { secret: stored, created: false }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const secret = randomBytes(32).toString('hex')
  // 'wx': if another process created it a moment ago, use theirs rather than overwrite it.
  try {
    await writeFile(layout.secretFile, `${secret}\n`, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSigningSecret(layout, undefined)
    throw error
  }
  return { secret, created: true }
}

/** Removes every leftover upload file; returns how many there were. Only the server calls this, at start. */
export async function sweepTemporaryFiles(layout: DataDirLayout): Promise<number> {
  const names = await readdir(layout.tmp).catch(() => [] as string[])
  await Promise.all(names.map((name) => rm(join(layout.tmp, name), { force: true, recursive: true })))
  return names.length
}
