import { errorCodes } from '../lib/error-codes'

/**
 * ENOSPC/EDQUOT from the filesystem or SQLITE_FULL from the database: the disk is full. Whoever writes (an
 * upload, a blob store, the database) may hit it, and the HTTP edge answers it with 507 wherever it came from.
 */
export function isDiskFull(error: unknown): boolean {
  return errorCodes(error).some((code) => code === 'ENOSPC' || code === 'EDQUOT' || code.startsWith('SQLITE_FULL') || code === 'PG_53100')
}
