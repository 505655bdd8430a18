/**
 * The `code`s along an error's `cause` chain (drizzle wraps driver errors in its own). A PostgreSQL error
 * (Bun's PostgresError: `code` ERR_POSTGRES_SERVER_ERROR, the SQLSTATE in `errno`) also gives `PG_<SQLSTATE>`,
 * so callers can match either database by prefix.
 */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = []
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, errno } = current as { code?: unknown; errno?: unknown }
    if (typeof code === 'string') codes.push(code)
    if (code === 'ERR_POSTGRES_SERVER_ERROR' && typeof errno === 'string') codes.push(`PG_${errno}`)
  }
  return codes
}

/** An error of the database itself (SQLite's SQLITE_*, PostgreSQL's SQLSTATE), not a refusal of ours. */
export const isDatabaseError = (error: unknown) =>
  errorCodes(error).some((code) => code.startsWith('SQLITE_') || code.startsWith('PG_') || code.startsWith('ERR_POSTGRES'))

/** SQLITE_BUSY/LOCKED: another process (a CLI command, a backup) held the write lock past the busy timeout. */
export const isDatabaseBusy = (error: unknown) =>
  errorCodes(error).some((code) => code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))

/** A constraint refused the write (a foreign key, a unique key): SQLite's SQLITE_CONSTRAINT*, SQLSTATE class 23. */
export const isConstraintFailure = (error: unknown) =>
  errorCodes(error).some((code) => code.startsWith('SQLITE_CONSTRAINT') || code.startsWith('PG_23'))
