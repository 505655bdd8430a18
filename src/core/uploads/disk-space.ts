import { statfs } from 'node:fs/promises'
import { insufficientStorage } from '../../errors'
import { formatSize } from '../../shared/sizes'

/**
 * Refuses an upload before reading it when the disk holding the data dir could not keep `reserveBytes`
 * free after storing `incomingBytes`. (A write that still runs out of space fails with the same 507.)
 */
export async function assertDiskSpace(dir: string, incomingBytes: number, reserveBytes: number): Promise<void> {
  const stats = await statfs(dir)
  const free = Number(stats.bavail) * Number(stats.bsize)
  if (free - incomingBytes < reserveBytes) {
    throw insufficientStorage(`${formatSize(free)} free, the server keeps at least ${formatSize(reserveBytes)} free`)
  }
}
