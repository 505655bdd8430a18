/**
 * The dashboard's only way to change anything: our own JSON API, with the session's bearer token. Failures
 * become ApiError with the API's own message, which the pages show as they are.
 */
import type { FileDto } from '../../../src/shared/file-shapes'
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

/** Where the API lives: the page tells us (the server may sit under a path prefix). */
export const apiBase = document.getElementById('app')?.dataset.api ?? '/api'

async function failureOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { error?: unknown; code?: unknown } | null
  const message = typeof body?.error === 'string' ? body.error : `The server answered ${response.status}`
  return new ApiError(message, response.status, typeof body?.code === 'string' ? body.code : 'unknown')
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {}
  const token = session.token()
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(`${apiBase}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  } catch {
    throw new ApiError('The server cannot be reached. Check the connection and try again.', 0, 'network')
  }
  if (response.status === 401 && token) session.expired()
  if (!response.ok) throw await failureOf(response)
  return (await response.json()) as T
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
      let body: { data?: FileDto; error?: string; code?: string } | null = null
      try {
        body = JSON.parse(request.responseText)
      } catch {
        body = null
      }
      if (request.status >= 200 && request.status < 300 && body?.data) return resolve(body.data)
      if (request.status === 401 && token) session.expired()
      reject(new ApiError(body?.error ?? `The server answered ${request.status}`, request.status, body?.code ?? 'unknown'))
    }
    request.onerror = () => reject(new ApiError('The upload was interrupted: the server cannot be reached.', 0, 'network'))
    request.onabort = () => reject(new ApiError('Cancelled', 0, 'cancelled'))
    const form = new FormData()
    form.append('file', file, file.name)
    request.send(form)
  })
  return { promise, cancel: () => request.abort() }
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
    throw new ApiError('The server cannot be reached. Check the connection and try again.', 0, 'network')
  }
  if (response.status === 401 && token) session.expired()
  if (!response.ok) throw await failureOf(response)
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
