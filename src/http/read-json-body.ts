import { badRequest, DomainError, jsonBodyTooLarge } from '../errors'

/** JSON bodies are small: a file's metadata, a sign-in, a token's label; nothing near this size is a real one. */
export const MAX_JSON_BODY_BYTES = 64 * 1024

/**
 * Reads and parses a JSON request body, refusing more than `MAX_JSON_BODY_BYTES` — from the declared
 * Content-Length before reading, and by counting while reading for chunked bodies.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > MAX_JSON_BODY_BYTES) throw jsonBodyTooLarge(MAX_JSON_BODY_BYTES)

  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body?.getReader()
  if (reader) {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.byteLength
        if (size > MAX_JSON_BODY_BYTES) {
          reader.cancel().catch(() => {})
          throw jsonBodyTooLarge(MAX_JSON_BODY_BYTES)
        }
        chunks.push(value)
      }
    } catch (error) {
      if (error instanceof DomainError) throw error
      throw badRequest('The request body was interrupted before it finished')
    }
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    throw badRequest('Malformed JSON body: it is not valid UTF-8')
  }
  if (text.trim() === '') throw badRequest('Malformed JSON body: the body is empty; send a JSON object')
  try {
    return JSON.parse(text)
  } catch (error) {
    throw badRequest(`Malformed JSON body: ${(error as Error).message}`)
  }
}
