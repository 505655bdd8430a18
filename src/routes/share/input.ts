import { readBoundedText } from '../../http/bounded-body'
import { readFormFields } from '../../http/form-fields'
import { mediaTypeOf } from '../../http/request-body'
import { deviceClassOf } from '../../lib/device-class'
import { referrerHostOf } from '../../lib/referrer-host'
import type { Visit } from './model'
import type { VisitFacts } from '../../core/share/visit-records'

/**
 * What the share routes read of a reader's request, so that the routes only pass it along: the visit it makes
 * (for the view counter), what the analytics keep of it, a password form's field, a reading beacon's body.
 */

// How browsers mark prefetches and previews; the first one present is taken.
const PURPOSE_HEADERS = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz']

/** The visit a request to the page makes, for the view counter. */
export function visitOf(request: Request, clientIp: string): Visit {
  return {
    method: request.method,
    userAgent: request.headers.get('user-agent'),
    purpose: PURPOSE_HEADERS.map((name) => request.headers.get(name)).find(Boolean) ?? null,
    fetchMode: request.headers.get('sec-fetch-mode'),
    fetchDest: request.headers.get('sec-fetch-dest'),
    fetchSite: request.headers.get('sec-fetch-site'),
    referrer: request.headers.get('referer'),
    clientIp,
  }
}

/** The reader asked not to be tracked: Sec-GPC: 1 (Global Privacy Control) or DNT: 1. */
export function asksNotToBeTracked(request: Request): boolean {
  return request.headers.get('sec-gpc')?.trim() === '1' || request.headers.get('dnt')?.trim() === '1'
}

/** What reading analytics keep of a request (besides the visitor key): referrer host, device class, tracked. */
export function visitFactsOf(request: Request, ownHost: string): Omit<VisitFacts, 'visitor' | 'reader'> {
  return {
    referrerHost: referrerHostOf(request.headers.get('referer'), ownHost),
    device: deviceClassOf(request.headers.get('user-agent')),
    tracked: !asksNotToBeTracked(request),
  }
}

/**
 * The `password` field of the password page's form (application/x-www-form-urlencoded), or "" when the body
 * is something else, too long, or has no such field: an empty password is simply wrong.
 */
export async function readPasswordField(request: Request): Promise<string> {
  return (await readFormFields(request)).get('password') ?? ''
}

/**
 * The body of a reading beacon as text, or why it is refused: `navigator.sendBeacon` sends a string as
 * text/plain, `fetch` may send application/json; anything longer than `maxBytes` is refused from its
 * Content-Length, or while reading a body without one.
 */
export async function readBeaconBody(request: Request, maxBytes: number): Promise<string | { status: 413 | 415 | 400; reason: string }> {
  const type = mediaTypeOf(request)
  if (type !== 'text/plain' && type !== 'application/json') return { status: 415, reason: 'send text/plain or application/json' }
  const body = await readBoundedText(request, maxBytes)
  if ('text' in body) return body.text
  if (body.problem === 'too_large') return { status: 413, reason: `the body must be at most ${maxBytes} bytes` }
  return { status: 400, reason: 'the body is not UTF-8 text, or was interrupted' }
}
