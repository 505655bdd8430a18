/** Where a failed S3 request went, for the message. */
export type S3Place = { endpoint: string; bucket: string }

const UNREACHABLE = new Set(['ConnectionRefused', 'ConnectionClosed', 'ConnectionTimeout', 'DNSResolveFailed', 'Timeout', 'ECONNRESET'])
const REFUSED_KEYS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'InvalidToken', 'ExpiredToken'])

/**
 * One line for the operator about a failed request of Bun's S3 client (an `S3Error` with a `code`), or
 * undefined for any other error. Bun's message is the server's XML or "an unexpected error has occurred":
 * neither tells an operator what to do.
 */
export function describeS3Failure(error: unknown, { endpoint, bucket }: S3Place): string | undefined {
  if (!(error instanceof Error) || error.name !== 'S3Error') return undefined
  const code = String((error as { code?: unknown }).code ?? 'UnknownError')
  if (code === 'NoSuchBucket') return `the S3 bucket ${bucket} does not exist at ${endpoint} (PDFSHARE_S3_BUCKET); create it first`
  if (UNREACHABLE.has(code))
    return `cannot reach the S3 endpoint ${endpoint} (${code}); check PDFSHARE_S3_ENDPOINT and that the server is up`
  if (REFUSED_KEYS.has(code))
    return `the S3 endpoint ${endpoint} refused the keys for bucket ${bucket} (${code}); check PDFSHARE_S3_ACCESS_KEY_ID and PDFSHARE_S3_SECRET_ACCESS_KEY`
  return `an S3 request to ${endpoint}, bucket ${bucket}, failed (${code})`
}
