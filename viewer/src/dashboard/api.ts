/**
 * The dashboard's only way to change anything: our own JSON API, with the session's bearer token. `api` is an
 * Eden Treaty client typed by the server's routes (`App` is a type-only import: nothing of the server is
 * bundled), so every answer has the type of the route's response schema. `ok` turns an answer into its
 * success body or throws ApiError with the API's own message, which the pages show as they are.
 */
import { treaty } from '@elysiajs/eden'
import type { App } from '../../../src/app'
import type { FileDto } from '../../../src/modules/files/model'
import { session } from './session'

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message)
  }
}

/** The message to show for a failure: the API's own, else `fallback`. */
export const errorText = (failure: unknown, fallback: string) => (failure instanceof ApiError ? failure.message : fallback)

/** Where the API lives: the page tells us (the server may sit under a path prefix, e.g. /docs/api). */
export const apiBase = document.getElementById('app')?.dataset.api ?? '/api'

const UNREACHABLE = 'The server cannot be reached. Check the connection and try again.'

/**
 * The API, as `api.api.files({ id }).get()`: the routes' paths start with /api, so the client's domain is
 * the page's origin plus the path prefix in front of it. Dates stay the ISO strings the models say they are
 * (Eden would turn them into Date objects). A 401 while signed in means the token expired or was revoked.
 */
export const api = treaty<App>(`${location.origin}${apiBase.replace(/\/api$/, '')}`, {
  parseDate: false,
  headers: () => {
    const token = session.token()
    return token ? { authorization: `Bearer ${token}` } : undefined
  },
  onResponse: (response) => {
    if (response.status === 401 && session.token()) session.expired()
  },
})

/** The API's failure envelope, `{ error, code }`, as an ApiError; anything else says the status. */
function failureOf(status: number, body: unknown): ApiError {
  const { error, code }: Record<string, unknown> = typeof body === 'object' && body !== null ? { ...body } : {}
  return new ApiError(
    typeof error === 'string' ? error : `The server answered ${status}`,
    status,
    typeof code === 'string' ? code : 'unknown',
  )
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
  if (answer.response === undefined) throw new ApiError(UNREACHABLE, 0, 'network')
  throw failureOf(answer.status, answer.error.value)
}

export type Transfer = { promise: Promise<FileDto>; cancel: () => void }

/**
 * Sends a PDF as multipart with XMLHttpRequest, the one browser API that reports upload progress:
 * `onProgress(sent, total)` as the bytes leave. POST for a new file, PUT to replace one.
 */
export function sendPdf(method: 'POST' | 'PUT', path: string, file: File, onProgress: (sent: number, total: number) => void): Transfer {
  const request = new XMLHttpRequest()
  const promise = new Promise<FileDto>((resolve, reject) => {
    request.open(method, `${apiBase}${path}`)
    const token = session.token()
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`)
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size)
    request.onload = () => {
      let body: { data?: FileDto } | null = null
      try {
        body = JSON.parse(request.responseText)
      } catch {
        body = null
      }
      if (request.status >= 200 && request.status < 300 && body?.data) return resolve(body.data)
      if (request.status === 401 && token) session.expired()
      reject(failureOf(request.status, body))
    }
    request.onerror = () => reject(new ApiError('The upload was interrupted: the server cannot be reached.', 0, 'network'))
    request.onabort = () => reject(new ApiError('Cancelled', 0, 'cancelled'))
    const form = new FormData()
    form.append('file', file, file.name)
    request.send(form)
  })
  return { promise, cancel: () => request.abort() }
}

/** PUTs a picture as the request's body itself (the branding's logo: no form, the API reads the bytes); the answer's data. */
export async function putPicture<T>(path: string, file: File): Promise<T> {
  const token = session.token()
  let response: Response
  try {
    response = await fetch(`${apiBase}${path}`, {
      method: 'PUT',
      headers: { 'content-type': file.type || 'application/octet-stream', ...(token && { authorization: `Bearer ${token}` }) },
      body: file,
    })
  } catch {
    throw new ApiError(UNREACHABLE, 0, 'network')
  }
  const body: { data?: T } | null = await response.json().catch(() => null)
  if (response.ok && body?.data) return body.data
  if (response.status === 401 && token) session.expired()
  throw failureOf(response.status, body)
}

/**
 * Downloads an owner-only file (a version's bytes): the API wants the bearer header, which a plain link
 * cannot send, so the bytes come through fetch and are handed to the browser as a blob with the file's name.
 */
export async function download(path: string, filename: string): Promise<void> {
  const token = session.token()
  let response: Response
  try {
    response = await fetch(`${apiBase}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  } catch {
    throw new ApiError(UNREACHABLE, 0, 'network')
  }
  if (response.status === 401 && token) session.expired()
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
