import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { DataDirLayout } from './layout'

/** Removes every leftover upload file; returns how many there were. Only the server calls this, at start. */
export async function sweepTemporaryFiles(layout: DataDirLayout): Promise<number> {
  const names = await readdir(layout.tmp).catch(() => [] as string[])
  await Promise.all(names.map((name) => rm(join(layout.tmp, name), { force: true, recursive: true })))
  return names.length
}
