import type { RequestRow } from '../../db/tables'

/**
 * Whether a request takes files now: `active`, or why a sender's upload is a 410 (`request_closed`). The
 * owner's own switch is the first reason, then the expiry, then a request that has all its files.
 */
export type RequestState = 'active' | 'disabled' | 'expired' | 'full'

export function requestState(row: Pick<RequestRow, 'disabled' | 'expiresAt' | 'received' | 'maxFiles'>, now: number): RequestState {
  if (row.disabled) return 'disabled'
  if (row.expiresAt !== null && row.expiresAt <= now) return 'expired'
  if (row.received >= row.maxFiles) return 'full'
  return 'active'
}

/** The sender's page: <public-url>/u/<slug>. */
export const requestUrlOf = (publicUrl: string, slug: string) => `${publicUrl}/u/${slug}`
