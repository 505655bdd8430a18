import { open } from 'node:fs/promises'

/**
 * fsync a file or a directory by path. A new or renamed file is durable only once its directory is synced
 * too, so writers call this on both.
 */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
