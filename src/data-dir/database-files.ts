import { chmod, stat } from 'node:fs/promises'

/**
 * The embedded database and its WAL and shared-memory files, owner-only. New ones are already (umask 077 in
 * main.ts); this covers files created by an earlier version or another tool, and in-process callers.
 */
export async function restrictDatabaseFiles(databaseUrl: string): Promise<void> {
  if (!databaseUrl.startsWith('file:')) return
  const path = databaseUrl.slice('file:'.length).replace(/\?.*$/, '')
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const mode = await stat(file).then(
      (info) => info.mode & 0o777,
      () => undefined,
    )
    if (mode !== undefined && mode & 0o077) await chmod(file, 0o600)
  }
}
