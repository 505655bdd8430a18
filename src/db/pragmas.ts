/** Milliseconds a connection waits for another process's write lock (e.g. a CLI command) before failing. */
export const BUSY_TIMEOUT_MS = 5000

/**
 * Set on every connection to the embedded file. WAL lets readers and the one writer work side by side;
 * FULL means a commit is on disk when it returns, matching the fsync'd blobs (kill -9 and power loss alike).
 */
export const EMBEDDED_PRAGMAS = [
  'PRAGMA journal_mode = WAL',
  'PRAGMA synchronous = FULL',
  `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
  'PRAGMA foreign_keys = ON',
]
