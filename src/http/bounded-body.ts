/**
 * A small request body as text, read at most `maxBytes` far: refused from its Content-Length before a byte is
 * read, and while reading one without it. The JSON bodies of the API, a share page's password form and the
 * viewer's reading beacons all come through here.
 */
export type BoundedText = { text: string } | { problem: 'too_large' | 'interrupted' | 'not_utf8' }

export async function readBoundedText(request: Request, maxBytes: number): Promise<BoundedText> {
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
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) }
  } catch {
    return { problem: 'not_utf8' }
  }
}
