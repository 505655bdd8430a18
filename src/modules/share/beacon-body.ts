import { mediaTypeOf } from '../../http/request-body'

/**
 * The body of a reading beacon as text, or why it is refused: `navigator.sendBeacon` sends a string as
 * text/plain, `fetch` may send application/json; anything longer than `maxBytes` is refused from its
 * Content-Length, or while reading a body without one.
 */
export async function readBeaconBody(request: Request, maxBytes: number): Promise<string | { status: 413 | 415 | 400; reason: string }> {
  const type = mediaTypeOf(request)
  if (type !== 'text/plain' && type !== 'application/json') return { status: 415, reason: 'send text/plain or application/json' }
  const tooLarge = { status: 413 as const, reason: `the body must be at most ${maxBytes} bytes` }
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return tooLarge
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body?.getReader()
  try {
    for (;;) {
      if (!reader) break
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) {
        reader.cancel().catch(() => {})
        return tooLarge
      }
      chunks.push(value)
    }
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    return { status: 400, reason: 'the body is not UTF-8 text, or was interrupted' }
  }
}
