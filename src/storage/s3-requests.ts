import type { S3Client } from 'bun'
import type { ByteRange } from './blob-store'

/**
 * How long a request to the store may wait (PDFSHARE_S3_CONNECT_TIMEOUT, PDFSHARE_S3_IDLE_TIMEOUT): `connectMs`
 * for the store to show it is there (its answer, or for an upload the first bytes it takes), then `idleMs` at
 * most between two signs of progress (a chunk of the body taken or received, the answer after the last byte sent).
 */
export type S3Timeouts = { connectMs: number; idleMs: number }

/** The store did not answer in time, or answered that it cannot serve now (5xx): nothing was stored or read. */
export class StoreUnavailable extends Error {
  override name = 'StoreUnavailable'
}

/** The store's recent health, as requests found it (for /api/health). */
export type StoreHealth = { failedAt?: number; okAt?: number }

type S3RequestInit = {
  body?: ReadableStream<Uint8Array>
  length?: number
  range?: ByteRange
  headers?: Record<string, string>
  /** Aborts the request (a put whose source failed: never let the store complete a shorter object). */
  signal?: AbortSignal
}

/** How long a presigned URL is good for: it is checked when the request arrives, which is at once. */
const PRESIGNED_FOR_SECONDS = 300

/**
 * Requests to the bucket as plain fetches of presigned URLs (Bun's client signs them, without a request), with a
 * watchdog: the request is aborted when the store shows nothing for `connectMs` at first, then for `idleMs`,
 * whether it stops answering, stops taking an upload's bytes or stops sending a download's. Bun's S3 client has no
 * timeout and cannot be aborted (neither can fetch's s3:// URLs once a streamed body is under way): against a
 * full or unresponsive bucket its requests hung for as long as the client waited. An aborted or refused (5xx)
 * request is a StoreUnavailable, noted in `health`; an answer of any other status is returned as it is. A PUT is
 * a single PUT of a known length, so an aborted one is never completed and stores nothing (an S3 object appears
 * only complete).
 */
export function s3Requests(client: S3Client, timeouts: S3Timeouts, now: () => number = Date.now) {
  const health: StoreHealth = {}

  async function request(method: string, objectName: string, init: S3RequestInit = {}): Promise<Response> {
    const aborter = new AbortController()
    init.signal?.addEventListener('abort', () => aborter.abort(init.signal?.reason), { once: true })
    let timer: Timer | undefined
    let phase = 'an answer'
    const wait = (ms: number, what: string) => {
      clearTimeout(timer)
      phase = what
      timer = setTimeout(() => {
        health.failedAt = now()
        aborter.abort(new StoreUnavailable(`the S3 store sent no ${phase} within ${ms / 1000} s`))
      }, ms)
    }
    const progress = () => wait(timeouts.idleMs, 'further bytes')
    wait(timeouts.connectMs, 'answer')
    const headers: Record<string, string> = { ...init.headers }
    if (init.range) headers.range = `bytes=${init.range.start}-${init.range.end - 1}`
    if (init.length !== undefined) headers['content-length'] = String(init.length)
    const body = init.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          progress()
          controller.enqueue(chunk)
        },
      }),
    )
    let response: Response
    try {
      const url = client.file(objectName).presign({ method: method as 'PUT', expiresIn: PRESIGNED_FOR_SECONDS })
      response = await fetch(url, { method, body, headers, signal: aborter.signal })
    } catch (error) {
      clearTimeout(timer)
      if (init.signal?.aborted) throw init.signal.reason // the caller's reason, not the store's
      throw failed(aborter.signal.aborted ? aborter.signal.reason : error)
    }
    if (response.status >= 500) {
      clearTimeout(timer)
      await response.body?.cancel().catch(() => {})
      throw failed(new StoreUnavailable(`the S3 store answered ${response.status} to ${method}`))
    }
    health.okAt = now()
    if (!response.body || method === 'HEAD') {
      clearTimeout(timer)
      return response
    }
    // The answer's body is watched too: a store that stops sending mid-way errors the stream within idleMs.
    progress()
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          progress()
          controller.enqueue(chunk)
        },
        flush: () => clearTimeout(timer),
      }),
      { signal: aborter.signal },
    )
    return new Response(watched, { status: response.status, headers: response.headers })
  }

  /** The error a failed request throws, noted as the store's latest failure. */
  function failed(error: unknown): Error {
    health.failedAt = now()
    if (error instanceof StoreUnavailable) return error
    return new StoreUnavailable(`the S3 store could not be reached (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    })
  }

  return { request, health }
}

export type S3Requests = ReturnType<typeof s3Requests>
