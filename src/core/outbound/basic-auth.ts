/** Printable US-ASCII: what every receiver reads the same way in a Basic header (RFC 7617 leaves other bytes' charset open). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

export const CREDENTIALS_PROBLEM =
  'the user name and password in the URL (user:password@) must be printable ASCII, percent-escaped where needed, and the user name must not hold a colon'

/**
 * The Authorization header for the credentials of a URL (`user:password@`, percent-decoded), none without
 * them, or `problem` when Basic authorization cannot carry them: an escape that decodes to nothing, a byte
 * outside printable ASCII, a colon in the user name (it would end the user name). Checked when a target is
 * made and again at each attempt, which then fails instead of throwing.
 */
export function basicAuthorization(url: URL): { header: string | undefined } | { problem: string } {
  if (!url.username && !url.password) return { header: undefined }
  let user: string
  let password: string
  try {
    user = decodeURIComponent(url.username)
    password = decodeURIComponent(url.password)
  } catch {
    return { problem: CREDENTIALS_PROBLEM }
  }
  if (!PRINTABLE_ASCII.test(user) || !PRINTABLE_ASCII.test(password) || user.includes(':')) return { problem: CREDENTIALS_PROBLEM }
  return { header: `Basic ${btoa(`${user}:${password}`)}` }
}
