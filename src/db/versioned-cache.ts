import type { HotSql } from './hot-sql'

/** Entries a cache keeps at most; the oldest is forgotten first. */
const DEFAULT_SIZE = 1024

/**
 * Rows remembered only while the database is unchanged: every lookup first reads the hot connection's
 * `data_version` (cheap; at most once per FOREIGN_CHECK_MS), and any commit by another connection (the API's own writes, a CLI process) empties
 * the cache. So a revoked token, an edited or deleted file is never served from here, with no TTL to tune.
 * The hot connection's own writes (view counts) do not change that version; a cache of rows they write
 * passes `ownCommits: true` and is emptied by those commits as well. Only found rows are kept (lookups of unknown keys cannot fill it), and nothing is kept for a remote
 * database, which gives no such signal.
 */
export function versionedCache<V>(sql: HotSql, options: { size?: number; ownCommits?: boolean } = {}) {
  const size = options.size ?? DEFAULT_SIZE
  const entries = new Map<string, V>()
  let seenVersion: number | undefined
  let seenOwnCommits = 0
  return async (key: string, load: () => Promise<V | undefined>): Promise<V | undefined> => {
    const version = await sql.dataVersion()
    const ownCommits = options.ownCommits ? sql.ownCommits() : 0
    if (version === undefined || version !== seenVersion || ownCommits !== seenOwnCommits) {
      entries.clear()
      seenVersion = version
      seenOwnCommits = ownCommits
    }
    const known = entries.get(key)
    if (known !== undefined) return known
    const value = await load()
    if (value !== undefined && version !== undefined) {
      if (entries.size >= size) entries.delete(entries.keys().next().value!)
      entries.set(key, value)
    }
    return value
  }
}
