import { constants, type Stats } from 'node:fs'
import { type FileHandle, lstat, open, readlink, realpath } from 'node:fs/promises'
import { join, sep } from 'node:path'

/**
 * Why `relative` inside `root` is not a regular file reached through real directories: 'missing', or
 * "is not a regular file (a symbolic link)" and the like. undefined when it is one. Every component is
 * looked at with lstat, so no symbolic link is followed, not even a linked folder on the way. For files
 * someone else may have prepared (a backup to restore), which must never lead outside themselves.
 */
export async function whyNotRegularFile(root: string, relative: string): Promise<string | undefined> {
  const parts = relative.split(sep)
  let path = root
  for (let i = 0; i < parts.length; i++) {
    path = join(path, parts[i]!)
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined
      throw error
    })
    if (!info) return 'missing'
    const last = i === parts.length - 1
    if (last ? !info.isFile() : !info.isDirectory()) {
      const what = `(${kindOf(info)})`
      return last ? `is not a regular file ${what}` : `is inside ${parts.slice(0, i + 1).join(sep)}, which is not a folder ${what}`
    }
  }
  return undefined
}

function kindOf(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symbolic link'
  if (info.isFIFO()) return 'a fifo'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isSocket()) return 'a socket'
  if (info.isDirectory()) return 'a folder'
  return 'a regular file'
}

/** A regular file opened by `openRegularFile`: read it through `handle`, then close it. */
export type OpenedRegularFile = { handle: FileHandle; size: number }

/**
 * Opens `relative` inside `root` for reading, only if what was opened is a regular file at exactly that place:
 * the last component is opened without following a symbolic link (O_NOFOLLOW), a fifo or device cannot block
 * the open (O_NONBLOCK), the opened file is checked with fstat, and its real path (Linux `/proc/self/fd`) must be
 * root's real path joined with `relative`, so no folder on the way was a link either. What is checked is the
 * file then read, not a path that someone could change between a check and the read. Otherwise why not.
 */
export async function openRegularFile(root: string, relative: string): Promise<OpenedRegularFile | string> {
  const path = join(root, relative)
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY
  const handle = await open(path, flags).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'ELOOP') return undefined
    throw error
  })
  if (!handle) return (await whyNotRegularFile(root, relative)) ?? 'changed while it was opened'
  let reason: string | undefined
  try {
    const info = await handle.stat()
    if (!info.isFile()) reason = `is not a regular file (${kindOf(info)})`
    else {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
      if (opened !== undefined && opened !== join(await realpath(root), relative))
        reason = (await whyNotRegularFile(root, relative)) ?? 'is reached through a symbolic link'
    }
    if (reason === undefined) return { handle, size: info.size }
  } catch (error) {
    await handle.close()
    throw error
  }
  await handle.close()
  return reason
}
