import { unsupportedMediaType } from '../errors'

/** The media type of a request without parameters, lower-cased ("" when absent). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
}

/** Fails with 415 unless the request's media type is one of `accepted`. Returns the matched type. */
export function requireMediaType<T extends string>(request: Request, accepted: readonly T[]): T {
  const type = mediaTypeOf(request)
  const match = accepted.find((candidate) => candidate === type)
  if (!match) {
    throw unsupportedMediaType(`Content-Type must be ${accepted.join(' or ')} (got ${type || 'none'})`)
  }
  return match
}
