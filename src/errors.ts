/**
 * The one error family of pdfshare. Anything a client did wrong is an AppError with a status, a stable
 * machine-readable `code` and a human sentence; anything else becomes a 500 `internal` in the app's onError.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'quota_exceeded'
  | 'not_found'
  | 'file_too_large'
  | 'body_too_large'
  | 'not_pdf'
  | 'unsupported_media_type'
  | 'request_timeout'
  | 'rate_limited'
  | 'server_busy'
  | 'insufficient_storage'
  | 'internal'

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'AppError'
  }
}

/** The exact text interface.md §5 requires, whatever the reason authentication failed. */
export const UNAUTHORIZED_MESSAGE = 'Invalid or missing API JWT token'

export const badRequest = (message: string) => new AppError(400, 'invalid_request', message)
export const notFound = (message = 'File not found') => new AppError(404, 'not_found', message)
export const notPdf = (message: string) => new AppError(415, 'not_pdf', message)
export const unauthorized = () =>
  new AppError(401, 'unauthorized', UNAUTHORIZED_MESSAGE, { 'www-authenticate': 'Bearer' })
export const quotaExceeded = (message: string) => new AppError(403, 'quota_exceeded', message)
export const unsupportedMediaType = (message: string) => new AppError(415, 'unsupported_media_type', message)

export type FailureBody = { success: false; error: string; code: ErrorCode }

export function failureBody(error: AppError): FailureBody {
  return { success: false, error: error.message, code: error.code }
}

/** A JSON failure response carrying the error's own headers. */
export function failureResponse(error: AppError, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(failureBody(error)), {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...error.headers, ...extraHeaders },
  })
}
