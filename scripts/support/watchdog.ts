/**
 * `bun test` fires no 'exit' event, and a killed test process fires nothing: for what a test process starts
 * outside itself (a database cluster, HAProxy, Ceph's daemons), a detached shell polls for the test process
 * and runs `cleanup` once it is gone, however it ended. In `cleanup`, "$2", "$3"… are `args`.
 */
export const WATCHDOG = 'pdfshare-watchdog'

/** Starts the watchdog `name`; the function it returns ends it (its charge was stopped the ordinary way). */
export function watchdog(name: string, cleanup: string, args: string[]): () => void {
  const proc = Bun.spawn(
    ['sh', '-c', `while kill -0 "$1" 2>/dev/null; do sleep 0.5; done; ${cleanup}`, `${WATCHDOG}:${name}`, String(process.pid), ...args],
    { stdio: ['ignore', 'ignore', 'ignore'], detached: true },
  )
  proc.unref()
  return () => {
    if (proc.exitCode === null) proc.kill('SIGKILL')
  }
}

/** Whether a process (by its command line) is such a watchdog. */
export const isWatchdog = (command: string) => command.includes(` ${WATCHDOG}:`)
