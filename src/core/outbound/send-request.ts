import { basicAuthorization } from './basic-auth'
import { type Resolve, targetOf } from './target-safety'

/** At most this much of a receiver's answer is read (for the delivery log's error text); the rest is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024
const ERROR_SNIPPET = 200

/** One request to a URL an owner gave (a webhook, a notification channel). */
export type OutgoingRequest = { url: string; method: 'POST' | 'PUT'; body: string; headers: Record<string, string> }
/** `error` goes into the delivery log the owner reads; `detail`, when there is more to say, only into the server's log. */
export type AttemptResult = { delivered: boolean; status: number | null; error: string | null; detail?: string }

export type SendOptions = {
  allowPrivate: boolean
  timeoutMs: number
  /** The time limit of the TCP connection alone (a receiver that does not answer at all holds a slot this long). */
  connectTimeoutMs: number
  /** Aborted when the server stops. */
  shutdown: AbortSignal
  resolve?: Resolve
}

/**
 * One attempt of a request to an owner's URL: check where it goes (every attempt, after resolving the host),
 * then send it to the very address that was checked (the URL's name goes in the Host header and as the TLS
 * server name, so the certificate is still checked against it), with a time limit for the connection and one
 * that covers the answer too, without following a redirect (a 3xx is a failure: the receiver must name its
 * final URL). Credentials in the URL (`user:password@`) go as Basic authorization (basic-auth.ts). Never throws: what went
 * wrong is the result's `error`.
 */
export async function sendRequest(request: OutgoingRequest, options: SendOptions): Promise<AttemptResult> {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return failure(null, 'the URL cannot be parsed')
  }
  const credentials = basicAuthorization(url)
  if ('problem' in credentials) return failure(null, credentials.problem)
  const basic = credentials.header
  const target = await targetOf(url, options.allowPrivate, options.resolve)
  if ('refusal' in target) return { ...failure(null, target.refusal), ...(target.detail && { detail: target.detail }) }
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
  const connected = await connects(target.address, port, options.connectTimeoutMs, options.shutdown)
  if (connected !== true) return failure(null, connected)

  const direct = new URL(url)
  direct.hostname = target.address.includes(':') ? `[${target.address}]` : target.address
  direct.username = ''
  direct.password = ''
  const named = direct.hostname !== url.hostname
  const timeout = AbortSignal.timeout(options.timeoutMs)
  try {
    const response = await fetch(direct, {
      method: request.method,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.any([timeout, options.shutdown]),
      ...(named && url.protocol === 'https:' && { tls: { serverName: url.hostname } }),
      headers: { ...(named && { host: url.host }), ...(basic && { authorization: basic }), ...request.headers },
    })
    const text = await readBounded(response)
    if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status, error: null }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location')
      return failure(
        response.status,
        `HTTP ${response.status}: redirects are not followed${location ? ` (to ${location.slice(0, 300)})` : ''}`,
      )
    }
    const snippet = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_SNIPPET)
    return failure(response.status, `HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`)
  } catch (error) {
    if (options.shutdown.aborted) return failure(null, 'interrupted: pdfshare was stopping')
    if (timeout.aborted) return failure(null, `no answer within ${options.timeoutMs / 1000} s`)
    // Bun names the URL it fetched, which holds the address: the owner sees their own host name instead.
    const message = String((error as Error).message ?? error).replaceAll(direct.host, url.host)
    return failure(null, `could not connect: ${message}`)
  }
}

const failure = (status: number | null, error: string): AttemptResult => ({ delivered: false, status, error })

/**
 * Whether a TCP connection to the address opens within `ms` (then closed at once), or why not: fetch has no
 * limit of its own on connecting, and a receiver whose address drops packets would hold a slot for the whole
 * attempt's limit.
 */
async function connects(address: string, port: number, ms: number, shutdown: AbortSignal): Promise<true | string> {
  let timer: Timer | undefined
  const socket = Bun.connect({ hostname: address, port, socket: { data() {}, error() {} } })
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`could not connect within ${ms / 1000} s`), ms)
    shutdown.addEventListener('abort', () => resolve('interrupted: pdfshare was stopping'), { once: true })
  })
  try {
    return await Promise.race([
      socket.then(
        (opened) => {
          opened.end()
          return true as const
        },
        (error: Error & { code?: string }) => `could not connect (${error.code ?? error.name})`,
      ),
      deadline,
    ])
  } finally {
    clearTimeout(timer)
    void socket.then((opened) => opened.end()).catch(() => {})
  }
}

/** The first MAX_RESPONSE_BYTES of the answer as text; the connection is released without reading further. */
async function readBounded(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES))
}
