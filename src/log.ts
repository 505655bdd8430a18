/** Where pdfshare writes its lines. The server logs to the console; tests pass their own to keep output clean and inspect it. */
export type Logger = {
  info(line: string): void
  error(line: string, error?: unknown): void
}

export const consoleLogger: Logger = {
  info: (line) => console.log(line),
  error: (line, error) => console.error(line, error instanceof Error ? `\n${error.stack ?? error.message}` : error ?? ''),
}

export const silentLogger: Logger = { info: () => {}, error: () => {} }
