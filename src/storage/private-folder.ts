import { constants } from 'node:fs'
import { lstat, mkdir, open, readdir } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Why a folder cannot take a backup (or another private copy); the CLI prints it. */
export class UnsafeFolder extends Error {
  override name = 'UnsafeFolder'
}

/**
 * Makes `path` a folder only this user can change, for a copy of secrets (a backup holds the database and the
 * signing key): created here when it does not exist (mode 0700), or, if it exists, taken only when it is a
 * real folder (not a symbolic link), owned by this user, writable by nobody else, and empty. Its own folder
 * must not let anyone else put another folder in its place (writable by others without the sticky bit, as
 * `/tmp` has). A folder someone else prepared could hold links that send what is written through it to their
 * files, or out of them to their hands; this refuses it instead of following them.
 */
export async function preparePrivateFolder(path: string, what: string): Promise<void> {
  const parent = dirname(path)
  await mkdir(parent, { recursive: true, mode: 0o700 })
  const parentInfo = await lstat(parent)
  // With the sticky bit (as on /tmp) others may add entries, but never rename or remove this user's.
  if ((parentInfo.mode & 0o1000) === 0 && (parentInfo.mode & 0o022) !== 0)
    throw new UnsafeFolder(
      `${what} ${path} is in ${parent}, which others may write to (they could put another folder in its place): choose a place only you can change`,
    )
  try {
    await mkdir(path, { mode: 0o700 })
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const info = await lstat(path)
  if (info.isSymbolicLink())
    throw new UnsafeFolder(`${what} ${path} is a symbolic link: name a real folder, or one that does not exist yet`)
  if (!info.isDirectory()) throw new UnsafeFolder(`${what} ${path} exists and is not a folder`)
  if (info.uid !== process.getuid?.())
    throw new UnsafeFolder(`${what} ${path} belongs to another user: name a folder of your own, or one that does not exist yet`)
  if ((info.mode & 0o022) !== 0)
    throw new UnsafeFolder(`${what} ${path} is writable by others: make it private (chmod 700), or name one that does not exist yet`)
  if ((await readdir(path)).length > 0) throw new UnsafeFolder(`${what} ${path} is not empty`)
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
