/**
 * The dashboard's only way to change anything: our own JSON API, with the session's bearer token. `api` is an
 * Eden Treaty client typed by the server's routes (`App` is a type-only import: nothing of the server is
 * bundled), so every answer has the type of the route's response schema. `ok` turns an answer into its
 * success body or throws ApiError with the API's own message, which the pages show as they are.
 */
import { treaty } from '@elysiajs/eden'
import type { App } from '../../../src/app'
import type { FileDto } from '../../../src/routes/files/model'
import { session } from './session'
import { language, type MessageKey, t } from './i18n'

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message)
  }
}

/**
 * The API's codes (docs/api.md, Errors) whose meaning the dashboard says in the page's language; the two whose
 * message names what was wrong (a field, a name in use) keep the API's words inside theirs (`{detail}`). Other
 * codes, and every message in English, are the API's own words.
 */
const CODE_MESSAGES: Partial<Record<string, MessageKey>> = {
  unauthorized: 'error.unauthorized',
  second_factor_required: 'error.second_factor_required',
  quota_exceeded: 'error.quota_exceeded',
  insufficient_scope: 'error.insufficient_scope',
  reauthentication_required: 'error.reauthentication_required',
  account_disabled: 'error.account_disabled',
  password_sign_in_off: 'error.password_sign_in_off',
  account_owner_only: 'error.account_owner_only',
  team_owner_only: 'error.team_owner_only',
  not_found: 'error.not_found',
  team_not_found: 'error.team_not_found',
  user_not_found: 'error.user_not_found',
  request_closed: 'error.request_closed',
  last_team_owner: 'error.last_team_owner',
  request_timeout: 'error.request_timeout',
  file_too_large: 'error.file_too_large',
  body_too_large: 'error.body_too_large',
  not_pdf: 'error.not_pdf',
  unsupported_media_type: 'error.unsupported_media_type',
  infected: 'error.infected',
  rate_limited: 'error.rate_limited',
  internal: 'error.internal',
  server_busy: 'error.server_busy',
  scan_unavailable: 'error.scan_unavailable',
  insufficient_storage: 'error.insufficient_storage',
  idempotency_key_in_use: 'error.idempotency_key_in_use',
  invalid_request: 'error.invalid_request',
  conflict: 'error.conflict',
}

/** What to show for an ApiError: in English the API's own message, else its code's in the page's language. */
function failureText(failure: ApiError): string {
  const key = language === 'en' ? undefined : CODE_MESSAGES[failure.code]
  return key ? t(key, { detail: failure.message }) : failure.message
}

/** The message to show for a failure: the API's (see failureText), else `fallback`. */
export const errorText = (failure: unknown, fallback: string) => (failure instanceof ApiError ? failureText(failure) : fallback)

/** Where the API lives: the page tells us (the server may sit under a path prefix, e.g. /docs/api). */
export const apiBase = document.getElementById('app')?.dataset.api ?? '/api'

/**
 * The API, as `api.api.files({ id }).get()`: the routes' paths start with /api, so the client's domain is
 * the page's origin plus the path prefix in front of it. Dates stay the ISO strings the models say they are
 * (Eden would turn them into Date objects). A 401 while signed in means the token expired or was revoked.
 */
export const api = treaty<App>(`${location.origin}${apiBase.replace(/\/api$/, '')}`, {
  parseDate: false,
  headers: (path) => {
    const token = session.tokenFor(path)
    return token ? { authorization: `Bearer ${token}` } : undefined
  },
  onResponse: (response) => {
    if (response.status === 401 && session.token()) session.refused(apiPathOf(response.url))
  },
})

/** The /api/… path of a URL of ours (the server may sit under a prefix), for session.tokenFor. */
function apiPathOf(url: string): string {
  const path = new URL(url, location.href).pathname
  const at = path.indexOf('/api/')
  return at === -1 ? path : path.slice(at)
}

/** The API's failure envelope, `{ error, code }`, as an ApiError; anything else says the status. */
function failureOf(status: number, body: unknown): ApiError {
  const { error, code }: Record<string, unknown> = typeof body === 'object' && body !== null ? { ...body } : {}
  return new ApiError(typeof error === 'string' ? error : t('api.status', { status }), status, typeof code === 'string' ? code : 'unknown')
}

/** An Eden answer: the success body, or the failure (no `response` when the request never got one). */
type Answer<T> =
  | { data: T; error: null; response: Response; status: number }
  | { data: null; error: { status: unknown; value: unknown }; response: Response | undefined; status: number }

/** The success body of an API answer, e.g. `const { data } = await ok(api.api.files({ id }).get())`; else throws ApiError. */
export async function ok<T>(request: Promise<Answer<T>>): Promise<T> {
  const answer = await request
  if (answer.error === null) return answer.data
  // Eden answers a fetch that failed (offline, refused, cut) with a 503 and no response.
  if (answer.response === undefined) throw new ApiError(t('api.unreachable'), 0, 'network')
  throw failureOf(answer.status, answer.error.value)
}

export type Transfer = { promise: Promise<FileDto>; cancel: () => void }

/** Waits before a PDF is sent again after its answer was lost (ms); then the failure is shown. */
const RESEND_WAITS_MS = [1000, 3000, 10_000]
/** Answers after which the same upload may simply be sent again (with its key: it is never stored twice). */
const SEND_AGAIN = new Set([409, 429, 502, 503, 504])

/** A new Idempotency-Key: 32 random hex digits (crypto.randomUUID exists only on HTTPS and localhost). */
function newKey(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

type Sent = { status: number; body: { data?: FileDto } | null; retryAfter: number | undefined } | 'lost'

/**
 * Sends a PDF as multipart with XMLHttpRequest, the one browser API that reports upload progress:
 * `onProgress(sent, total)` as the bytes leave. POST for a new file, PUT to replace one. The upload carries an
 * Idempotency-Key of its own (docs/api.md, Retrying writes): when its answer is lost (the connection cut, a
 * balancer's 502) or the server asks to come back (409 while a first send is still being stored, 429, 503), it
 * is sent again, with the same key, up to three times: the server then answers what it did with the first send,
 * or does it now, and never stores the PDF twice.
 */
export function sendPdf(method: 'POST' | 'PUT', path: string, file: File, onProgress: (sent: number, total: number) => void): Transfer {
  const key = newKey()
  let current: XMLHttpRequest | undefined
  let cancelled = false
  const sendOnce = () =>
    new Promise<Sent>((resolve, reject) => {
      const request = new XMLHttpRequest()
      current = request
      request.open(method, `${apiBase}${path}`)
      const token = session.tokenFor(`/api${path}`)
      if (token) request.setRequestHeader('authorization', `Bearer ${token}`)
      request.setRequestHeader('idempotency-key', key)
      request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size)
      request.onload = () => {
        let body: { data?: FileDto } | null = null
        try {
          body = JSON.parse(request.responseText)
        } catch {
          body = null
        }
        if (request.status === 401 && token) session.refused(`/api${path}`)
        const retryAfter = Number(request.getResponseHeader('retry-after'))
        resolve({ status: request.status, body, retryAfter: retryAfter > 0 ? retryAfter : undefined })
      }
      request.onerror = () => resolve('lost')
      request.onabort = () => reject(new ApiError(t('api.cancelled'), 0, 'cancelled'))
      const form = new FormData()
      form.append('file', file, file.name)
      request.send(form)
    })
  const promise = (async () => {
    for (let resends = 0; ; resends++) {
      const sent = await sendOnce()
      if (sent !== 'lost' && sent.status >= 200 && sent.status < 300 && sent.body?.data) return sent.body.data
      const again = sent === 'lost' || SEND_AGAIN.has(sent.status)
      if (!again || resends >= RESEND_WAITS_MS.length) {
        if (sent === 'lost') throw new ApiError(t('api.interrupted'), 0, 'network')
        throw failureOf(sent.status, sent.body)
      }
      const wait = sent !== 'lost' && sent.retryAfter !== undefined ? sent.retryAfter * 1000 : RESEND_WAITS_MS[resends]!
      await new Promise((resolve) => setTimeout(resolve, wait))
      if (cancelled) throw new ApiError(t('api.cancelled'), 0, 'cancelled')
    }
  })()
  return {
    promise,
    cancel: () => {
      cancelled = true
      current?.abort()
    },
  }
}

/** PUTs a picture as the request's body itself (the branding's logo: no form, the API reads the bytes); the answer's data. */
export async function putPicture<T>(path: string, file: File): Promise<T> {
  const token = session.tokenFor(`/api${path}`)
  let response: Response
  try {
    response = await fetch(`${apiBase}${path}`, {
      method: 'PUT',
      headers: { 'content-type': file.type || 'application/octet-stream', ...(token && { authorization: `Bearer ${token}` }) },
      body: file,
    })
  } catch {
    throw new ApiError(t('api.unreachable'), 0, 'network')
  }
  const body: { data?: T } | null = await response.json().catch(() => null)
  if (response.ok && body?.data) return body.data
  if (response.status === 401 && token) session.refused(`/api${path}`)
  throw failureOf(response.status, body)
}

/**
 * Downloads an owner-only file (a version's bytes): the API wants the bearer header, which a plain link
 * cannot send, so the bytes come through fetch and are handed to the browser as a blob with the file's name.
 */
export async function download(path: string, filename: string): Promise<void> {
  const token = session.tokenFor(`/api${path}`)
  let response: Response
  try {
    response = await fetch(`${apiBase}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  } catch {
    throw new ApiError(t('api.unreachable'), 0, 'network')
  }
  if (response.status === 401 && token) session.refused(`/api${path}`)
  if (!response.ok) throw failureOf(response.status, await response.json().catch(() => null))
  const url = URL.createObjectURL(await response.blob())
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = filename
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  // Let the blob go once the browser has surely taken it over.
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}
