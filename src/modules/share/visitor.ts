import { deviceClassOf } from '../../lib/device-class'
import { referrerHostOf } from '../../lib/referrer-host'
import type { Visit } from './model'
import type { VisitFacts } from './service/visit-records'

/** What the share page learns about its visitor from the request, so the page's route only passes it along. */

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
    clientIp,
  }
}

/** The reader asked not to be tracked: Sec-GPC: 1 (Global Privacy Control) or DNT: 1. */
export function asksNotToBeTracked(request: Request): boolean {
  return request.headers.get('sec-gpc')?.trim() === '1' || request.headers.get('dnt')?.trim() === '1'
}

/** What reading analytics keep of a request (besides the visitor key): referrer host, device class, tracked. */
export function visitFactsOf(request: Request, ownHost: string): Omit<VisitFacts, 'visitor'> {
  return {
    referrerHost: referrerHostOf(request.headers.get('referer'), ownHost),
    device: deviceClassOf(request.headers.get('user-agent')),
    tracked: !asksNotToBeTracked(request),
  }
}
