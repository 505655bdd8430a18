import { constants, type Stats } from 'node:fs'
import { type FileHandle, lstat, mkdir, open, readdir, readlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** Why a folder cannot take a backup (or another private copy); the CLI prints it. */
export class UnsafeFolder extends Error {
  override name = 'UnsafeFolder'
}

/**
 * A folder opened once, and what is inside it named through the open folder, never through its path again:
 * `at(name)` is Linux's `/proc/self/fd/<fd>/<name>`, which the kernel resolves from the folder the descriptor
 * holds, as openat(2), mkdirat(2) and renameat(2) would. Moving the folder away, or putting a link or another
 * folder at its path, changes nothing for what is made, renamed or read through `at`; every node:fs call and
 * Bun.file take these paths, so the code that writes through them is the one that writes a data dir.
 */
export type OpenedFolder = {
  /** The path it was named by, for messages only. */
  path: string
  /** Something inside the folder (or the folder itself), reached through the open folder. */
  at(relative?: string): string
  /** fsync the folder: what was created or renamed in it is durable. */
  sync(): Promise<void>
  close(): Promise<void>
}

const FOLDER = constants.O_RDONLY | constants.O_DIRECTORY

async function openFolder(path: string, flags = FOLDER): Promise<OpenedFolder & { handle: FileHandle }> {
  const handle = await open(path, flags)
  const self = `/proc/self/fd/${handle.fd}`
  return {
    path,
    handle,
    at: (relative = '') => join(self, relative),
    sync: () => handle.sync(),
    close: () => handle.close(),
  }
}

/**
 * Opens `path` as a folder only this user can change, for a copy of secrets (a backup holds the database and
 * the signing key): created here when it does not exist (mode 0700), or, if it exists, taken only when it is a
 * real folder (not a symbolic link), owned by this user, writable by nobody else, and empty.
 *
 * Nobody else may be able to move it or a folder above it either: every folder on its real path must belong to
 * this user or root and be writable by nobody else, unless it has the sticky bit and belongs to root (as `/tmp`:
 * others may add entries, never rename this user's). Whoever owns a folder above could otherwise put another
 * folder in its place while the backup is written (the sticky bit does not bind a folder's owner). The checks
 * are made on the opened folders, and the caller writes through the one returned (`at`), so a swap after the
 * checks changes nothing either. The caller closes it.
 */
export async function openPrivateFolder(path: string, what: string): Promise<OpenedFolder> {
  const refuse = (reason: string) => new UnsafeFolder(`${what} ${path} ${reason}`)
  const parent = await openFolderFor(path, what)
  try {
    const name = basename(path)
    await mkdir(parent.at(name), { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
    const folder = await openFolder(parent.at(name), FOLDER | constants.O_NOFOLLOW).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTDIR' && error.code !== 'ELOOP') throw error
      if ((await lstat(parent.at(name))).isSymbolicLink())
        throw refuse('is a symbolic link: name a real folder, or one that does not exist yet')
      throw refuse('exists and is not a folder')
    })
    try {
      const info = await folder.handle.stat()
      if (info.uid !== process.getuid?.())
        throw refuse('belongs to another user: name a folder of your own, or one that does not exist yet')
      if ((info.mode & 0o022) !== 0) throw refuse('is writable by others: make it private (chmod 700), or name one that does not exist yet')
      if ((await readdir(folder.at())).length > 0) throw refuse('is not empty')
      return { ...folder, path }
    } catch (error) {
      await folder.close()
      throw error
    }
  } finally {
    await parent.close()
  }
}

/**
 * Opens the folder `path` is to be made in (made when missing, mode 0700), once checked that nobody else can
 * move it or a folder above it (the rules of openPrivateFolder): checked before folders are made on the way,
 * and again on the opened folder after. The caller makes `path` through it (`at`) and closes it.
 */
export async function openFolderFor(path: string, what: string): Promise<OpenedFolder> {
  const refuse = (reason: string) => new UnsafeFolder(`${what} ${path} ${reason}`)
  const early = await whoElseCanMove(await realPathOf(await nearestExisting(dirname(path))))
  if (early) throw refuse(early)
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const parent = await openFolder(dirname(path))
  try {
    const late = await whoElseCanMove(await readlink(parent.at()), await parent.handle.stat())
    if (late) throw refuse(late)
    return parent
  } catch (error) {
    await parent.close()
    throw error
  }
}

/**
 * Why someone else could move a folder at or above `realPath` (a path without links), or undefined. `first`
 * is the folder itself, from its open descriptor; the folders above are looked at by path, which only their
 * own (checked) parents could change.
 */
async function whoElseCanMove(realPath: string, first?: Stats): Promise<string | undefined> {
  const me = process.getuid?.()
  for (let folder = realPath, info = first ?? (await lstat(folder)); ; ) {
    const sticky = (info.mode & 0o1000) !== 0
    if (info.uid !== 0 && info.uid !== me)
      return `is inside ${folder}, which belongs to another user (uid ${info.uid}): they could put another folder in its place; choose a place that only you or root own`
    if ((info.mode & 0o022) !== 0 && !(sticky && info.uid === 0))
      return `is inside ${folder}, which others may write to (they could put another folder in its place): choose a place only you can change`
    if (folder === '/') return undefined
    folder = dirname(folder)
    info = await lstat(folder)
  }
}

async function nearestExisting(path: string): Promise<string> {
  for (let folder = path; ; folder = dirname(folder)) {
    const found = await lstat(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    if (found || folder === '/') return folder
  }
}

async function realPathOf(path: string): Promise<string> {
  const folder = await openFolder(path)
  try {
    return await readlink(folder.at())
  } finally {
    await folder.close()
  }
}

/**
 * Writes a new file that must not exist yet, without following a symbolic link at its name (O_EXCL and
 * O_NOFOLLOW), with `mode` set on the open file, and synced to disk.
 */
export async function writeNewFile(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW
  const handle = await open(path, flags, mode)
  try {
    await handle.chmod(mode)
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
}
