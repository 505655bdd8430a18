import { deviceClassOf } from '../../lib/device-class'
import { referrerHostOf } from '../../lib/referrer-host'
import type { Visit } from './model'
import { REPEAT_WINDOW_MS } from './service/count-view'
import type { VisitFacts } from './service/visit-records'

/**
 * What the share page learns about its visitor from the request, and the cookie that remembers a counted
 * visitor for the repeat window, so the page's route only passes them along.
 */
const SEEN_COOKIE = 'pdfshare_seen'
const SEEN = `${SEEN_COOKIE}=1`

// How browsers mark prefetches and previews; the first one present is taken.
const PURPOSE_HEADERS = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz']

/** The visit a request to the page makes, for the view counter. */
export function visitOf(request: Request, clientIp: string): Visit {
  return {
    method: request.method,
    userAgent: request.headers.get('user-agent'),
    purpose: PURPOSE_HEADERS.map((name) => request.headers.get(name)).find(Boolean) ?? null,
    seenCookie: (request.headers.get('cookie') ?? '').split(/;\s*/).includes(SEEN),
    clientIp,
  }
}

/** The Set-Cookie for a counted visitor: this page only (`path`), not readable by scripts, as long as the repeat window. */
export function seenCookie(path: string, options: { secure: boolean }): string {
  return `${SEEN}; Max-Age=${REPEAT_WINDOW_MS / 1000}; Path=${path}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`
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
