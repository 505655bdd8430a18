import { Elysia, type TSchema, ValidationError } from 'elysia'
import { badRequest, databaseBusy, diskFull, DomainError, internalError, notFound, storeUnavailable } from '../errors'
import { randomId } from '../lib/ids'
import { isDatabaseBusy, isDatabaseError } from '../lib/error-codes'
import { isDiskFull } from '../storage/disk-full'
import { StoreUnavailable } from '../storage/s3-requests'
import type { Logger } from '../log'
import type { Metrics } from '../core/metrics/metrics'
import { bodyProblems } from './check-body'
import { httpFailure } from './failure'

type RequestNote = { id: string; startedAt: number; user?: string }

/**
 * One app's facts about its requests for the access log, keyed by the Request object itself (never in the
 * global `store`): the lifecycle writes them, the auth guard adds the caller's name.
 */
export function requestNotes() {
  const notes = new WeakMap<Request, RequestNote>()
  return {
    start: (request: Request, id: string) => notes.set(request, { id, startedAt: performance.now() }),
    of: (request: Request) => notes.get(request),
    /** Lets the auth guard put the caller's name on the access-log line. */
    caller(request: Request, userName: string): void {
      const note = notes.get(request)
      if (note) note.user = userName
    },
  }
}

export type RequestNotes = ReturnType<typeof requestNotes>

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/

/**
 * Our request ids: a random prefix per process and a counter. Unique is all a request id must be, and a
 * counter costs nothing, where random bytes per request showed in the profile (BENCHMARKS.md, Design measurements).
 */
function requestIds(): () => string {
  const prefix = randomId(6)
  let next = 0
  return () => `${prefix}${(next++).toString(36)}`
}

/** The log line's time, formatted once per millisecond at most (toISOString showed in the profile). */
function isoClock(): () => string {
  let last = 0
  let text = ''
  return () => {
    const now = Date.now()
    if (now !== last) {
      last = now
      text = new Date(now).toISOString()
    }
    return text
  }
}

/**
 * The root plugin every response passes through: an `X-Request-Id` on each (the client's own if it sent a
 * sane one), the failure envelope for every error, and one access-log line per request. Unexpected errors
 * are logged with their stack under the request id and answered with a bare 500: no stack, path or SQL
 * ever reaches a client.
 */
export function requestLifecycle(log: Logger, metrics: Metrics, notes: RequestNotes) {
  const nextRequestId = requestIds()
  const clock = isoClock()
  const bodyProblem = bodyProblems()
  return new Elysia({ name: 'request-lifecycle' })
    .onRequest(({ request, set }) => {
      const offered = request.headers.get('x-request-id')
      const id = offered && CLIENT_REQUEST_ID.test(offered) ? offered : nextRequestId()
      notes.start(request, id)
      set.headers['x-request-id'] = id
      // Defaults for every response; pages and files that need another policy send their own, which wins.
      set.headers['x-content-type-options'] = 'nosniff'
      set.headers['referrer-policy'] = 'no-referrer'
      set.headers['content-security-policy'] = "default-src 'none'; frame-ancestors 'none'"
    })
    .onError({ as: 'global' }, ({ code, error, set, request }) => {
      const { status, body, headers } = httpFailure(asDomainError(code, error, bodyProblem))
      if (status >= 500) log.error(`request ${notes.of(request)?.id ?? '-'} failed`, error)
      if (metrics.enabled && isDatabaseError(error)) metrics.databaseError(isDatabaseBusy(error) ? 'busy' : 'other')
      set.status = status
      Object.assign(set.headers, headers, { 'content-type': 'application/json; charset=utf-8' })
      return body
    })
    .onAfterResponse({ as: 'global' }, ({ request, path, route, set, responseValue }) => {
      const note = notes.of(request)
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status ?? 200)
      const elapsed = note ? performance.now() - note.startedAt : undefined
      const ms = elapsed === undefined ? '-' : elapsed.toFixed(1)
      log.info(`${clock()} ${note?.id ?? '-'} ${request.method} ${path} ${status} ${ms}ms user=${note?.user ?? '-'}`)
      // By the route's pattern: a path asked for that matched no route is `unmatched`, so scanners cannot grow the series.
      if (metrics.enabled) metrics.request(request.method, route || 'unmatched', status, (elapsed ?? 0) / 1000)
    })
}

/** What a thrown value means to the client: our own errors as they are, the few others we recognise, the rest `internal`. */
function asDomainError(code: unknown, error: unknown, bodyProblem: ReturnType<typeof bodyProblems>): DomainError {
  if (error instanceof DomainError) return error
  if (isDiskFull(error)) return diskFull()
  if (isDatabaseBusy(error)) return databaseBusy()
  if (error instanceof StoreUnavailable) return storeUnavailable()
  if (code === 'NOT_FOUND') return notFound('Not found')
  if (code === 'PARSE') {
    // Elysia wraps what a parser throws: our JSON parsers' refusals (401, 415, 413, 400, 429) and a busy database
    // are answered as themselves; a body its own parsers could not read (SyntaxError, TypeError) is the client's.
    const cause = error instanceof Error ? error.cause : undefined
    if (cause === undefined || cause instanceof SyntaxError || cause instanceof TypeError) return badRequest('Malformed request body')
    return asDomainError(undefined, cause, bodyProblem)
  }
  if (error instanceof ValidationError && error.type === 'body') {
    // Worded like every body check (check-body.ts): the first property that fails, in the schema's order.
    const problem = bodyProblem(schemaOf(error.validator), error.value)
    if (problem !== undefined) return badRequest(problem)
  }
  if (error instanceof ValidationError && error.type !== 'response') {
    const detail = `${error.valueError?.path ?? ''} ${error.valueError?.message ?? ''}`
    return badRequest(typeof error.customError === 'string' ? error.customError : `Invalid ${error.type}: ${detail}`.trim())
  }
  return internalError()
}

/** The TypeBox schema behind a validator Elysia compiled (or the schema itself). */
function schemaOf(validator: ValidationError['validator']): TSchema {
  return 'Schema' in validator && typeof validator.Schema === 'function' ? (validator.Schema() as TSchema) : (validator as TSchema)
}
