import type { UserRow } from '../../../db/tables'

export type Limits = { maxStorageBytes: number | null; maxFiles: number | null }

/** A user's plan limits as the account shows them; null is unlimited. */
export function limitsOf(user: Pick<UserRow, 'maxBytes' | 'maxFiles'>): Limits {
  return { maxStorageBytes: user.maxBytes, maxFiles: user.maxFiles }
}
