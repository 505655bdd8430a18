import { randomBytes } from 'node:crypto'
import { chmod, readFile, stat, writeFile } from 'node:fs/promises'
import type { Database } from '../db/database'
import type { DataDirLayout } from './layout'

/**
 * The signing secret: the configured one, else the one stored in the data dir, else a new random one
 * written there with mode 0600. `created` tells the caller this is a first start.
 */
export async function loadSigningSecret(
  layout: DataDirLayout,
  configured: string | undefined,
): Promise<{ secret: string; created: boolean }> {
  if (configured) return { secret: configured, created: false }
  try {
    const stored = (await readFile(layout.secretFile, 'utf8')).trim()
    if (Buffer.byteLength(stored) < 32)
      throw new Error(
        `the secret in ${layout.secretFile} is shorter than 32 bytes; delete it to generate a new one (all tokens become invalid)`,
      )
    const mode = (await stat(layout.secretFile)).mode & 0o777
    if (mode & 0o077) await chmod(layout.secretFile, 0o600)
    return { secret: stored, created: false }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const secret = randomBytes(32).toString('hex')
  // 'wx': if another process created it a moment ago, use theirs rather than overwrite it.
  try {
    await writeFile(layout.secretFile, `${secret}\n`, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSigningSecret(layout, undefined)
    throw error
  }
  return { secret, created: true }
}

/**
 * The signing secret of an install on a shared database (PostgreSQL): the configured one, else the one in the
 * database's `meta`, else a new random one stored there. Every instance in front of that database then signs
 * and checks tokens with the same key, with nothing to copy between machines. Whoever can read the database
 * can mint tokens with it, as whoever can read the data dir can on one machine; PDFSHARE_JWT_SECRET keeps it
 * out of the database.
 */
export async function sharedSigningSecret(
  database: Pick<Database, 'exclusive'>,
  configured: string | undefined,
): Promise<{ secret: string; created: boolean }> {
  if (configured) return { secret: configured, created: false }
  return database.exclusive(async (query) => {
    const [row] = await query('SELECT value FROM meta WHERE key = ?', [SECRET_KEY])
    if (row) return { secret: String(row[0]), created: false }
    const secret = randomBytes(32).toString('hex')
    await query('INSERT INTO meta (key, value) VALUES (?, ?)', [SECRET_KEY, secret])
    return { secret, created: true }
  })
}

const SECRET_KEY = 'signing_secret'
