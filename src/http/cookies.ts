/**
 * The one way pdfshare writes and reads its cookies. Every cookie is HttpOnly and SameSite=Lax, scoped to a
 * path, kept for a lifetime, and Secure when the public URL is https.
 */
export type CookieOptions = { path: string; lifetimeMs: number; secure: boolean }

/** The Set-Cookie header of a cookie. Names and values are pdfshare's own (token-safe characters only). */
export function setCookieHeader(name: string, value: string, options: CookieOptions): string {
  const secure = options.secure ? '; Secure' : ''
  return `${name}=${value}; Max-Age=${Math.floor(options.lifetimeMs / 1000)}; Path=${options.path}; HttpOnly; SameSite=Lax${secure}`
}

/** Every value the request's Cookie header holds for `name` (a browser may send two of one name, for two paths). */
export function cookieValues(cookieHeader: string | null, name: string): string[] {
  if (!cookieHeader) return []
  const values: string[] = []
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=')
    if (at === -1 || part.slice(0, at).trim() !== name) continue
    const value = part.slice(at + 1).trim()
    if (value) values.push(value)
  }
  return values
}
