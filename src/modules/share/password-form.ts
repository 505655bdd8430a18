import { mediaTypeOf } from '../../http/request-body'

/** A password form is a few hundred bytes; a longer body is not one (and is never hashed). */
const MAX_FORM_BYTES = 8 * 1024

/**
 * The `password` field of the password page's form (application/x-www-form-urlencoded), or "" when the body
 * is something else, too long, or has no such field: an empty password is simply wrong.
 */
export async function readPasswordField(request: Request): Promise<string> {
  if (mediaTypeOf(request) !== 'application/x-www-form-urlencoded') return ''
  if (Number(request.headers.get('content-length') ?? 0) > MAX_FORM_BYTES) return ''
  const reader = request.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > MAX_FORM_BYTES) {
        reader.cancel().catch(() => {})
        return ''
      }
      chunks.push(value)
    }
  } catch {
    return ''
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('password') ?? ''
}
