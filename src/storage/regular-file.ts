import { lstat } from 'node:fs/promises'
import type { Stats } from 'node:fs'
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
