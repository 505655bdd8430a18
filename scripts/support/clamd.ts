import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

/** Debian's clamav-daemon. */
export const CLAMD = '/usr/sbin/clamd'

export type Clamd = {
  /** PDFSHARE_CLAMD for it. */
  setting: string
  /** The name clamd reports for a hit of `signature` (a hash signature outside ClamAV's own database). */
  found: string
  /** Stops it (and waits for it to go); it may be stopped twice. */
  stop(): Promise<void>
  /** Removes its folder; after `stop`. */
  remove(): void
}

/**
 * ClamAV's daemon as a child process of the test (docs/operations.md, Virus scanning): a folder with a config and
 * a database of one hash signature the test writes (`MD5:SIZE:NAME` in a .hdb file: the bytes of `infected`
 * match it, nothing else does), so no download of ClamAV's own database is needed. Ready when its socket
 * appears (about a second with such a database). The caller registers `stop` and `remove` (afterAll) before
 * asserting anything, so a failing test never leaves it running.
 */
export async function startClamd(infected: Uint8Array, signature = 'Pdfshare.Test.Sig'): Promise<Clamd> {
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-clamd-'))
  const db = join(dir, 'db')
  mkdirSync(db)
  const md5 = createHash('md5').update(infected).digest('hex')
  writeFileSync(join(db, 'pdfshare-test.hdb'), `${md5}:${infected.length}:${signature}\n`)
  const socket = join(dir, 'clamd.sock')
  writeFileSync(
    join(dir, 'clamd.conf'),
    [
      'Foreground yes',
      `LocalSocket ${socket}`,
      `DatabaseDirectory ${db}`,
      `PidFile ${join(dir, 'clamd.pid')}`,
      'User root',
      // Above pdfshare's 100 MB cap: clamd's default (25 MB) refuses larger streams.
      'StreamMaxLength 200M',
      'LogFile /dev/null',
    ].join('\n'),
  )
  const child: Subprocess = Bun.spawn([CLAMD, '-c', join(dir, 'clamd.conf')], { stdout: 'ignore', stderr: 'pipe' })
  const stop = async () => {
    if (child.exitCode === null && !child.killed) child.kill('SIGTERM')
    await child.exited
  }
  const deadline = Date.now() + 30_000
  while (!existsSync(socket)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const why = await new Response(child.stderr as ReadableStream).text().catch(() => '')
      await stop()
      rmSync(dir, { recursive: true, force: true })
      throw new Error(`clamd did not start: ${why.slice(-500)}`)
    }
    await Bun.sleep(50)
  }
  return {
    setting: `unix:${socket}`,
    found: `${signature}.UNOFFICIAL`,
    stop,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
