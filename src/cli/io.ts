import { DomainError } from '../errors'
import { terminalSafe } from '../lib/text'

/** Where a CLI command writes. stdout carries only a command's result (e.g. the JWT); everything else goes to stderr. */
export type CliIo = {
  out(text: string): void
  err(text: string): void
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}

/** A failure a command reports as one line and an exit code (1: the operation failed, 2: bad usage or settings). */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message)
    this.name = 'CliFailure'
  }
}

/** The CLI's side of the error family: a service's refusal is one line and exit code 1, whatever its code. */
export function asCliFailure(error: unknown): unknown {
  if (error instanceof DomainError) return new CliFailure(error.message, 1)
  // Bun's PostgreSQL client: the server could not be reached or refused us (its own words, e.g. "Failed to connect").
  if (error instanceof Error && error.name === 'PostgresError')
    return new CliFailure(`the PostgreSQL database answered: ${error.message} (${(error as { code?: string }).code ?? 'no code'})`, 1)
  return error
}

/**
 * Plain aligned columns for list commands, every one of them: what users typed (labels, names) is printed
 * through terminalSafe, so no cell can carry a control sequence to the operator's terminal.
 */
export function table(header: string[], cells: string[][]): string {
  const rows = cells.map((row) => row.map(terminalSafe))
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)].join('\n')
}

/**
 * A command line to show the user, spelled the way they run pdfshare right now (the binary's path, or the
 * source entry point) and with --data when their data dir is not the default.
 */
export function commandHint(dataDir: string, command: string): string {
  const cwd = process.cwd()
  const program = !Bun.isStandaloneExecutable
    ? 'bun run pdfshare'
    : process.execPath.startsWith(`${cwd}/`)
      ? `./${process.execPath.slice(cwd.length + 1)}`
      : process.execPath
  const data = dataDir === `${cwd}/data` ? '' : ` --data ${dataDir}`
  return `${program} ${command}${data}`
}
