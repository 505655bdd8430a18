import { writeSync } from 'node:fs'
import { redactPasswords } from './lib/redact'

/** Where pdfshare writes its lines. The server logs to the console; tests pass their own to keep output clean and inspect it. */
export type Logger = {
  info(line: string): void
  error(line: string, error?: unknown): void
}

/**
 * Lines to stdout, written together once per turn of the event loop: under load one write(2) carries many
 * access-log lines instead of one each. Whatever is pending is written synchronously before the process exits.
 */
function bufferedStdout(): (line: string) => void {
  let pending = ''
  const flush = () => {
    if (pending) process.stdout.write(pending)
    pending = ''
  }
  process.on('exit', () => {
    try {
      if (pending) writeSync(1, pending)
    } catch {
      // stdout is gone or would block at exit: nothing more can be done for these lines
    }
  })
  return (line) => {
    if (!pending) setImmediate(flush)
    pending += `${line}\n`
  }
}

const writeLine = bufferedStdout()

/** Error lines go to stderr with the error's stack (never to a client), without a URL's password. */
export const consoleLogger: Logger = {
  info: writeLine,
  error: (line, error) =>
    console.error(
      redactPasswords(line),
      redactPasswords(error instanceof Error ? `\n${error.stack ?? error.message}` : String(error ?? '')),
    ),
}
