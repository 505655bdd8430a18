import type { Visit } from './model'
import { REPEAT_WINDOW_MS } from './service/count-view'

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
