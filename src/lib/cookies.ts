/**
 * The one way pdfshare writes and reads its cookies. Every cookie is HttpOnly, scoped to a path, kept for a
 * lifetime, and Secure when the public URL is https. It is SameSite=Lax, unless it must work inside another
 * site's frame (`crossSite`: the readers' cookies of a share link that other sites may frame): then it is
 * `SameSite=None; Secure; Partitioned` — sent in that frame, and kept apart for each site that frames the page
 * (CHIPS), so no other site's page ever sends it.
 */
export type CookieOptions = { path: string; lifetimeMs: number; secure: boolean; crossSite?: boolean }

/** The Set-Cookie header of a cookie. Names and values are pdfshare's own (token-safe characters only). */
export function setCookieHeader(name: string, value: string, options: CookieOptions): string {
  const site = options.crossSite ? 'SameSite=None; Secure; Partitioned' : `SameSite=Lax${options.secure ? '; Secure' : ''}`
  return `${name}=${value}; Max-Age=${Math.floor(options.lifetimeMs / 1000)}; Path=${options.path}; HttpOnly; ${site}`
}

/**
 * A request's cookies, taken apart once: every value of each name, in the header's order (a browser may send two
 * of one name, for two paths). Values that are empty are left out.
 */
export type RequestCookies = ReadonlyMap<string, readonly string[]>

/** The cookies of a request's Cookie header (none when it has no such header). */
export function parseCookies(cookieHeader: string | null): RequestCookies {
  const cookies = new Map<string, string[]>()
  if (!cookieHeader) return cookies
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=')
    const value = part.slice(at + 1).trim()
    if (at === -1 || !value) continue
    const name = part.slice(0, at).trim()
    const values = cookies.get(name)
    if (values) values.push(value)
    else cookies.set(name, [value])
  }
  return cookies
}

/** Every value the request's Cookie header holds for `name`. */
export function cookieValues(cookieHeader: string | null, name: string): readonly string[] {
  return parseCookies(cookieHeader).get(name) ?? []
}
