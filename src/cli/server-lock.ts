import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CliFailure } from './io'

/**
 * One server per data dir: the start-up sweep deletes files that look abandoned, which would be wrong if
 * another server were writing them. The lock is a pid file; a file left by a killed server names a dead
 * process (or this one, after a container restart) and is taken over.
 */
export async function acquireServerLock(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, 'server.pid')
  const existing = await serverHoldingLock(dataDir)
  if (existing !== undefined) {
    throw new CliFailure(`another pdfshare server (pid ${existing}) is using the data dir ${dataDir}`, 1)
  }
  await writeFile(path, `${process.pid}\n`)
  return async () => {
    const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim())
    if (owner === process.pid) await rm(path, { force: true })
  }
}

/** The pid of a live server holding the data dir, if any. */
export async function serverHoldingLock(dataDir: string): Promise<number | undefined> {
  const pid = Number((await readFile(join(dataDir, 'server.pid'), 'utf8').catch(() => '')).trim())
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
