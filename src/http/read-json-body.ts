import { badRequest, jsonBodyTooLarge } from '../errors'
import type { TSchema } from 'elysia'
import { readBoundedText } from './bounded-body'
import { notAnObject } from './check-body'
import { requireMediaType } from './request-body'

/** JSON bodies are small: a file's metadata, a sign-in, a token's label; nothing near this size is a real one. */
export const MAX_JSON_BODY_BYTES = 64 * 1024

/**
 * Reads and parses a JSON request body, refusing more than `MAX_JSON_BODY_BYTES` — from the declared
 * Content-Length before reading, and by counting while reading for chunked bodies.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const body = await readBoundedText(request, MAX_JSON_BODY_BYTES)
  if ('problem' in body) {
    if (body.problem === 'too_large') throw jsonBodyTooLarge(MAX_JSON_BODY_BYTES)
    if (body.problem === 'interrupted') throw badRequest('The request body was interrupted before it finished')
    throw badRequest('Malformed JSON body: it is not valid UTF-8')
  }
  if (body.text.trim() === '') throw badRequest('Malformed JSON body: the body is empty; send a JSON object')
  try {
    return JSON.parse(body.text)
  } catch (error) {
    throw badRequest(`Malformed JSON body: ${(error as Error).message}`)
  }
}

/**
 * The body of a JSON route, for its parser (auth-guard.ts jsonBody): application/json only (a text/plain or form
 * body would make the request one any web page can send), bounded as above, and an object, as every JSON body
 * of the API is (else the schema's own words for it). The object check comes before Elysia's because Elysia
 * would turn `[]`, `0` or `"s"` into an object before its schema check.
 */
export async function readJsonObject(request: Request, schema: TSchema): Promise<Record<string, unknown>> {
  requireMediaType(request, ['application/json'])
  const value = await readJsonBody(request)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(notAnObject(schema, value))
  return value as Record<string, unknown>
}
