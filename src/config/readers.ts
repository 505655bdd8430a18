import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { isAbsolute, resolve } from 'node:path'
import { hexColourOf } from '../lib/colour'
import { imageTypeOf } from '../lib/image-type'
import { checkText } from '../lib/text'
import { BRAND_LIMITS } from '../shared/branding-shapes'
import { parseFormBoolean } from '../lib/booleans'
import { parseTtl } from '../lib/durations'
import { parseSize } from '../shared/sizes'
import { LANGUAGES } from '../shared/languages'

// Readers for the settings' texts: each returns the value, or undefined when the text is not one.

/** Plain digits (surrounding spaces allowed) from `min` to `max`. */
export const integer = (min: number, max: number) => (text: string) => {
  const trimmed = text.trim()
  const value = Number(trimmed)
  return /^\d+$/.test(trimmed) && value >= min && value <= max ? value : undefined
}

/** A size such as 512MB (binary units), in bytes, from `min` to `max`. */
export const size =
  (min = 0, max = Number.MAX_SAFE_INTEGER) =>
  (text: string) => {
    const bytes = parseSize(text)
    return bytes !== undefined && bytes >= min && bytes <= max ? bytes : undefined
  }

/** A lifetime such as 12h, in seconds, from `min` to `max`; never "never". */
export const lifetime = (min: number, max: number) => (text: string) => {
  const seconds = parseTtl(text)
  return typeof seconds === 'number' && seconds >= min && seconds <= max ? seconds : undefined
}

export const anyText = (text: string) => text

/** A secret of at least `minBytes` bytes, kept exactly as given. */
export const secret = (minBytes: number) => (text: string) => (Buffer.byteLength(text) >= minBytes ? text : undefined)

/** A directory, relative to the working directory unless absolute. */
export const directory = (text: string, cwd: string) => (text.trim() === '' ? undefined : resolve(cwd, text))

/** An http(s) URL that can be the base of links: no credentials, query or fragment; no trailing slash. */
export const baseUrl = (text: string) => {
  if (!URL.canParse(text)) return undefined
  const url = new URL(text)
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) return undefined
  return url.href.replace(/\/+$/, '')
}

/** A libSQL URL; a relative file: path is made absolute against the working directory. */
export const databaseUrl = (text: string, cwd: string) => {
  const value = text.trim()
  if (/^postgres(?:ql)?:\/\//i.test(value)) return URL.canParse(value) ? value : undefined
  if (!/^(file|libsql|https?|wss?):/.test(value)) return undefined
  if (!value.startsWith('file:')) return value
  const path = value.slice('file:'.length)
  return isAbsolute(path) ? value : `file:${resolve(cwd, path)}`
}

/** A lifetime such as 7d, in seconds, from `min` to `max`; "none" (or "never") is null. */
export const optionalLifetime = (min: number, max: number) => (text: string) => {
  if (['none', 'never'].includes(text.trim().toLowerCase())) return null
  return lifetime(min, max)(text)
}

/** One of the accepted boolean words (true, false, 1, 0, yes, no, on, off), any case. */
export const boolean = (text: string) => parseFormBoolean(text)

/** One of the given words, any case. */
export const oneOf =
  <const Word extends string>(words: readonly Word[]) =>
  (text: string) =>
    words.find((word) => word === text.trim().toLowerCase())

/** One of the reader's pages' languages (shared/languages.ts), any case, as its tag is written there (pt-BR). */
export const language = (text: string) => LANGUAGES.find((tag) => tag.toLowerCase() === text.trim().toLowerCase())

/** Any text but a blank one, trimmed. */
export const nonBlank = (text: string) => (text.trim() === '' ? undefined : text.trim())

/** An absolute http(s) URL kept exactly as written (an OpenID issuer must match its discovery document's to the byte). */
export const exactUrl = (text: string) => {
  const trimmed = text.trim()
  if (!URL.canParse(trimmed)) return undefined
  const url = new URL(trimmed)
  return url.protocol === 'http:' || url.protocol === 'https:' ? trimmed : undefined
}

/** Comma-separated email domains, lower-cased: `example.com, example.org`. */
export const domainList = (text: string) => {
  const domains = text
    .split(',')
    .map((one) => one.trim().toLowerCase())
    .filter((one) => one !== '')
  return domains.every((one) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(one)) ? domains : undefined
}

/** An HTTP header name, lower-cased: `Remote-User` → `remote-user`. */
export const headerName = (text: string) => (/^[A-Za-z0-9-]{1,64}$/.test(text.trim()) ? text.trim().toLowerCase() : undefined)

/** Comma-separated IP addresses and CIDR ranges: `127.0.0.1, 10.0.0.0/8, ::1`. */
export const addressList = (text: string) => {
  const entries = text
    .split(',')
    .map((one) => one.trim())
    .filter((one) => one !== '')
  const valid = entries.every((entry) => {
    const [address = '', prefix, ...rest] = entry.split('/')
    const family = isIP(address)
    if (family === 0 || rest.length > 0) return false
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
  })
  return valid && entries.length > 0 ? entries : undefined
}

/** An SMTP server's URL: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS from the start). */
export const smtpUrl = (text: string) => {
  const trimmed = text.trim()
  if (!URL.canParse(trimmed)) return undefined
  const url = new URL(trimmed)
  return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' ? trimmed : undefined
}

/** Where clamd listens: its Unix socket or a TCP address. */
export type ClamdAddress = { path: string } | { host: string; port: number }

/** clamd's address: `unix:/run/clamav/clamd.ctl` (an absolute path) or `tcp://host:3310`. */
export const clamdAddress = (text: string): ClamdAddress | undefined => {
  const trimmed = text.trim()
  if (trimmed.startsWith('unix:')) {
    const path = trimmed.slice('unix:'.length)
    return isAbsolute(path) ? { path } : undefined
  }
  if (!/^tcp:\/\//i.test(trimmed) || !URL.canParse(trimmed)) return undefined
  const url = new URL(trimmed)
  const port = Number(url.port)
  if (url.hostname === '' || url.pathname.replace(/^\/$/, '') !== '' || url.search || url.username || !(port >= 1 && port <= 65535))
    return undefined
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port }
}

/** One email address, or `Name <address>`. */
export const mailbox = (text: string) => (/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+\.?[^\s@<>]*>?$/.test(text.trim()) ? text.trim() : undefined)

/** The instance's name (branding): 1 to 60 characters, the text rules of a title, trimmed. */
export const brandName = (text: string) => {
  const check = checkText(text.trim(), { max: BRAND_LIMITS.name })
  return check.ok && check.value !== '' ? check.value : undefined
}

/** An accent colour: `#rrggbb`, kept lower-case. */
export const hexColour = (text: string) => hexColourOf(text)

/**
 * A logo file (branding): a PNG, JPEG or WebP image by its first bytes, of at most 1 MB, read at start so that
 * a wrong path or file stops the server with a clear line. It is decoded and re-encoded when first shown.
 */
export const logoFile = (text: string, cwd: string) => {
  const path = resolve(cwd, text.trim())
  try {
    const bytes = readFileSync(path)
    return bytes.byteLength <= BRAND_LIMITS.logoBytes && imageTypeOf(bytes) !== undefined ? path : undefined
  } catch {
    return undefined
  }
}

/** One single sign-on group mapped to a team and a role (docs/teams.md, Single sign-on groups). */
export type TeamGroup = { group: string; teamId: string; role: 'owner' | 'editor' | 'viewer' }
const GROUP_ROLES = ['owner', 'editor', 'viewer'] as const // core/teams/roles.ts's, which config may not import

/**
 * Groups mapped to teams: `sales=TEAM_ID:editor, staff=TEAM_ID:viewer` (the last `=` of each entry ends the group),
 * or, for group names with commas (an LDAP DN), JSON: `[{"group":"cn=sales,ou=groups","team":"TEAM_ID","role":"editor"}]`.
 */
export const teamGroups = (text: string): TeamGroup[] | undefined => {
  const trimmed = text.trim()
  const entries = trimmed.startsWith('[') ? jsonTeamGroups(trimmed) : trimmed.split(',').map(simpleTeamGroup)
  if (!entries || entries.length === 0) return undefined
  const valid = entries.every(
    (entry) =>
      entry !== undefined &&
      entry.group.trim() !== '' &&
      /^[A-Za-z0-9_-]{1,64}$/.test(entry.teamId) &&
      (GROUP_ROLES as readonly string[]).includes(entry.role),
  )
  return valid ? (entries as TeamGroup[]) : undefined
}

function simpleTeamGroup(entry: string): TeamGroup | undefined {
  const at = entry.lastIndexOf('=')
  const [teamId = '', role = '', ...rest] = entry
    .slice(at + 1)
    .trim()
    .split(':')
  if (at <= 0 || rest.length > 0) return undefined
  return { group: entry.slice(0, at).trim(), teamId, role: role as TeamGroup['role'] }
}

function jsonTeamGroups(text: string): (TeamGroup | undefined)[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text)
    if (!Array.isArray(parsed)) return undefined
    return parsed.map((one: { group?: unknown; team?: unknown; role?: unknown }) =>
      typeof one?.group === 'string' && typeof one.team === 'string' && typeof one.role === 'string'
        ? { group: one.group, teamId: one.team, role: one.role as TeamGroup['role'] }
        : undefined,
    )
  } catch {
    return undefined
  }
}
