import type { DomainError, ErrorCode, ErrorHints } from '../errors'
import { rateLimitHeaders } from '../lib/rate-limiter'

/**
 * The HTTP status of each error code: the table "Status codes and error codes" in docs/api.md. The one status that
 * is not a code's own is a Range outside the file, which `sendFile` answers with 416 (a Range is an HTTP
 * matter, not a domain one) and the code `invalid_request`.
 */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  second_factor_required: 401,
  quota_exceeded: 403,
  insufficient_scope: 403,
  reauthentication_required: 403,
  account_disabled: 403,
  password_sign_in_off: 403,
  account_owner_only: 403,
  team_owner_only: 403,
  sender_refused: 403,
  not_found: 404,
  team_not_found: 404,
  user_not_found: 404,
  request_closed: 410,
  conflict: 409,
  last_team_owner: 409,
  idempotency_key_in_use: 409,
  request_timeout: 408,
  file_too_large: 413,
  body_too_large: 413,
  not_pdf: 415,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  infected: 422,
  rate_limited: 429,
  internal: 500,
  server_busy: 503,
  scan_unavailable: 503,
  insufficient_storage: 507,
}

/** The failure envelope every error response carries. */
export type FailureBody = { success: false; error: string; code: ErrorCode }

export type HttpFailure = { status: number; headers: Record<string, string>; body: FailureBody }

/** A domain error as an HTTP answer: its code's status, its hints as headers, and the envelope. */
export function httpFailure(error: DomainError): HttpFailure {
  return { status: HTTP_STATUS[error.code], headers: headersFor(error.hints), body: failureBody(error) }
}

export function failureBody(error: DomainError): FailureBody {
  return { success: false, error: error.message, code: error.code }
}

function headersFor(hints: ErrorHints): Record<string, string> {
  const headers: Record<string, string> = {}
  if (hints.challenge) headers['www-authenticate'] = hints.challenge
  if (hints.rateLimit) Object.assign(headers, rateLimitHeaders(hints.rateLimit))
  if (hints.retryAfterSeconds !== undefined) headers['retry-after'] = String(hints.retryAfterSeconds)
  return headers
}
