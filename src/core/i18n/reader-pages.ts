import type { LinkAccess } from '../share/link-access'

// A reader's page: a link's (`/s/<slug>`, a room's document `/s/<slug>/docs/<fileId>`) or a file request's (`/u/<slug>`).
const READER_PAGE = /^\/(?:s\/[A-Za-z0-9_-]{1,64}(?:\/docs\/[A-Za-z0-9_-]{1,64})?|u\/[A-Za-z0-9_-]{1,64})/

/**
 * The address of the reader's page a request is about (under the base path), where its language picker leads
 * back to: a gate's POST leads back to its link's page. Anything else leads to the site's root.
 */
export function pageAddressOf(basePath: string, url: string): string {
  const page = READER_PAGE.exec(new URL(url).pathname)?.[0]
  return `${basePath}${page ?? '/'}`
}

/** `back` when it is the address of a reader's page of this site (under `basePath`), else undefined. */
export function readerPageOr(basePath: string, back: string): string | undefined {
  if (!back.startsWith(`${basePath}/`)) return undefined
  const page = READER_PAGE.exec(back.slice(basePath.length))?.[0]
  return page !== undefined && `${basePath}${page}` === back ? back : undefined
}

/** The language a link fixes, when the request found one: its row's, or the one a 410 names. */
export function linkLanguageOf(access: LinkAccess | undefined): string | null {
  if (access?.kind === 'open') return access.shared.link.language
  if (access?.kind === 'gone') return access.language ?? null
  return null
}
