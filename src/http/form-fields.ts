import { readBoundedText } from './bounded-body'
import { mediaTypeOf } from './request-body'

/** A gate's form (a share link's, a file request's) is a few hundred bytes; a longer body is not one (and a password in it is never hashed). */
const MAX_FORM_BYTES = 8 * 1024

/**
 * The fields of a gate page's form (a share link's, a file request's) (application/x-www-form-urlencoded): none when the body is something else or
 * too long, so a missing field reads as "" and is simply wrong.
 */
export async function readFormFields(request: Request): Promise<URLSearchParams> {
  if (mediaTypeOf(request) !== 'application/x-www-form-urlencoded') return new URLSearchParams()
  const body = await readBoundedText(request, MAX_FORM_BYTES)
  return 'text' in body ? new URLSearchParams(body.text) : new URLSearchParams()
}
