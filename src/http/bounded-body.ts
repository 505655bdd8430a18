/**
 * A small request body, read at most `maxBytes` far: refused from its Content-Length before a byte is read, and
 * while reading one without it. The JSON bodies of the API, a share page's password form, the viewer's reading
 * beacons and an admin's logo all come through here.
 */
export type BoundedBytes = { bytes: Buffer } | { problem: 'too_large' | 'interrupted' }
export type BoundedText = { text: string } | { problem: 'too_large' | 'interrupted' | 'not_utf8' }

export async function readBoundedBytes(request: Request, maxBytes: number): Promise<BoundedBytes> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return { problem: 'too_large' }
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body?.getReader()
  if (reader) {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.byteLength
        if (size > maxBytes) {
          reader.cancel().catch(() => {})
          return { problem: 'too_large' }
        }
        chunks.push(value)
      }
    } catch {
      return { problem: 'interrupted' }
    }
  }
  return { bytes: Buffer.concat(chunks) }
}

export async function readBoundedText(request: Request, maxBytes: number): Promise<BoundedText> {
  const body = await readBoundedBytes(request, maxBytes)
  if (!('bytes' in body)) return body
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body.bytes) }
  } catch {
    return { problem: 'not_utf8' }
  }
}
