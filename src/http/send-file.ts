import { encodeExtended } from 'content-disposition'
import parseRange from 'range-parser'
import { rangeNotSatisfiable } from '../errors'
import { asciiFallback, downloadName } from '../lib/download-name'
import { failureBody } from './failure'
import type { ByteRange } from '../storage/blob-store'

export type SendFileOptions = {
  /** Exact size of the stored bytes. */
  size: number
  /** Strong validator for the bytes (derived from their SHA-256). */
  etag: string
  /** The whole Content-Disposition header (see `contentDisposition`); callers may keep it per file. */
  disposition: string
  headers?: Record<string, string>
}

/** A strong ETag from a SHA-256: it changes exactly when the bytes change. */
export function etagOf(sha256: string): string {
  return `"${sha256.slice(0, 32)}"`
}

/**
 * A PDF response with conditional and Range support done here rather than left to Bun.serve, so it behaves
 * the same under `app.handle` in tests and carries `Accept-Ranges` on the 200 (pdf.js waits for it before
 * it makes range requests). One range → 206; several ranges → the whole file (allowed by RFC 9110);
 * an unsatisfiable range → 416 with `Content-Range: bytes * /size` and the failure envelope (code
 * `invalid_request`): the status is HTTP's own for a Range, so it is chosen here rather than by the code.
 * `body` gives the bytes (a blob store's `body`: for the local store a file handle, which Bun sends with
 * sendfile) and is not called for HEAD or 304.
 */
export async function sendFile(
  request: Request,
  body: (range?: ByteRange) => BodyInit | Promise<BodyInit>,
  options: SendFileOptions,
): Promise<Response> {
  const headers: Record<string, string> = {
    ...options.headers,
    'content-type': 'application/pdf',
    'accept-ranges': 'bytes',
    etag: options.etag,
    'content-disposition': options.disposition,
    'x-content-type-options': 'nosniff',
  }

  if (matchesEtag(request.headers.get('if-none-match'), options.etag)) {
    return new Response(null, { status: 304, headers })
  }

  const rangeHeader = request.headers.get('range')
  const ifRange = request.headers.get('if-range')
  if (rangeHeader && (ifRange === null || ifRange === options.etag)) {
    const ranges = parseRange(options.size, rangeHeader, { combine: true })
    if (ranges === -1) {
      headers['content-range'] = `bytes */${options.size}`
      headers['content-type'] = 'application/json; charset=utf-8'
      delete headers['content-disposition']
      return new Response(JSON.stringify(failureBody(rangeNotSatisfiable(options.size))), { status: 416, headers })
    }
    if (Array.isArray(ranges) && ranges.length === 1 && ranges.type === 'bytes') {
      const { start, end } = ranges[0]!
      headers['content-range'] = `bytes ${start}-${end}/${options.size}`
      headers['content-length'] = String(end - start + 1)
      return new Response(request.method === 'HEAD' ? null : await body({ start, end: end + 1 }), { status: 206, headers })
    }
  }

  headers['content-length'] = String(options.size)
  return new Response(request.method === 'HEAD' ? null : await body(), { status: 200, headers })
}

/**
 * RFC 6266, always in one shape: `type; filename="<ASCII fallback>"; filename*=UTF-8''<the name>`. Both
 * parameters are pdfshare's own, built from the stored name by rules that leave it no way to end a value or
 * add a parameter; the name always ends in .pdf (lib/download-name.ts).
 */
export function contentDisposition(filename: string, type: 'inline' | 'attachment'): string {
  const name = downloadName(filename)
  return `${type}; filename="${asciiFallback(name)}"; filename*=${encodeExtended(name)}`
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '')
    return value === '*' || value === etag
  })
}

type ElysiaSet = { headers: Record<string, string | number> }

/**
 * Moves the headers gathered on Elysia's `set` (request id, security defaults, rate-limit counts) out of it,
 * for a file Response to carry itself. With anything left on `set`, Elysia rebuilds a returned Response from
 * `response.body`, which turns a file body into a stream: Bun can no longer send it straight from the file,
 * and the rebuild is costly (BENCHMARKS.md, Design measurements).
 */
export function takeSetHeaders(set: ElysiaSet): Record<string, string> {
  const taken: Record<string, string> = {}
  for (const key of Object.keys(set.headers)) {
    taken[key] = String(set.headers[key])
    delete set.headers[key]
  }
  return taken
}
