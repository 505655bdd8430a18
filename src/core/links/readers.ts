import { domainToASCII } from 'node:url'
import type { LinkRow } from '../../db/tables'
import { LINK_LIMITS } from '../../shared/link-shapes'

/**
 * Who may open a share link besides whoever holds it: the access mode, the allow and deny lists, and how an
 * address a reader types is read. Framework-free rules, shared by the links API (what an owner may set) and the
 * share routes (who gets in).
 */

/** `open`: whoever holds the link. `email`: a reader gives an address first. `verified-email`: and proves it with a mailed code. */
export const ACCESS_MODES = ['open', 'email', 'verified-email'] as const
export type AccessMode = (typeof ACCESS_MODES)[number]

export const isAccessMode = (value: unknown): value is AccessMode => ACCESS_MODES.includes(value as AccessMode)

/*
 * An address is judged in the spelling a mail server delivers it by, not as typed: allow and deny lists compare
 * canonical forms. Hosted mail delivers `intern+nda@acme.com` to intern, and `"intern"@acme.com`,
 * `intern(note)@acme.com`, `x<intern@acme.com>` and `x,intern@acme.com` reach intern too (the last three are
 * rewritten by nodemailer itself before they are sent); `intern%acme.com@relay` routes through another server.
 * So a reader's address must be a plain dot-atom (RFC 5321) of letters, digits and the atext characters except
 * `%` and `!` (relay routing): quoted local parts, comments, display names and lists are not addresses. The
 * canonical form is lower-case NFKC, the local part cut at its first `+` (a sub-address), the domain in ASCII
 * (IDNA: full-width letters and other spellings of one domain meet). What no rule can see is in docs/readers.md:
 * Gmail's dots, other hosts' `-` tags, aliases and forwarding.
 */
const ATEXT = "[\\p{L}\\p{N}#$&'*+/=?^_`{|}~-]+"
const LOCAL = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*$`, 'u')
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?'
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+[\\p{L}\\p{N}-]*\\p{L}[\\p{L}\\p{N}-]*$`, 'u')
const PLAIN_ASCII = /^[a-z0-9.-]+$/

/** A domain as mail is routed to it: IDNA's ASCII form; undefined when it has none. */
function asciiDomain(domain: string): string | undefined {
  if (PLAIN_ASCII.test(domain)) return domain
  return domainToASCII(domain) || undefined
}

/** A reader's address as it is kept, shown and mailed: trimmed, lower-case NFC; undefined when it is not an address (above). */
export function readerAddressOf(text: string): string | undefined {
  const address = text.trim().normalize('NFC').toLowerCase()
  if (address.length > LINK_LIMITS.address || !address.isWellFormed()) return undefined
  const at = address.lastIndexOf('@')
  const [local, domain] = [address.slice(0, at), address.slice(at + 1)]
  return at > 0 && LOCAL.test(local) && DOMAIN.test(domain) && asciiDomain(domain) !== undefined ? address : undefined
}

/**
 * The canonical form of an address or an `@domain` entry (above), for comparing. Lenient with what it is
 * given, so that a list entry stored before these rules (`"intern"@acme.com`, `Intern+Old@acme.com`) still
 * means the mailbox it names: quotes are dropped, then the rules apply.
 */
export function canonicalAddress(address: string): string {
  const text = address.trim().normalize('NFKC').toLowerCase()
  const at = text.lastIndexOf('@')
  const domain = text.slice(at + 1)
  const local = text.slice(0, Math.max(0, at)).replaceAll('"', '')
  const plus = local.indexOf('+')
  return `${plus === -1 ? local : local.slice(0, plus)}@${asciiDomain(domain) ?? domain}`
}

// An address as it may stand in a text pdfshare wrote (a notification's "ada@acme.com opened it", a digest's
// "Readers: a@x, b@y."): no spaces or list punctuation, not ending in the sentence's full stop.
const ADDRESS_IN_TEXT = /[^\s,;<>()]+@[^\s,;<>()"]*[^\s,;<>()".]/gu

/** `text` with every address of the mailbox `canonical` names (in any spelling of it) replaced by `replacement`. */
export const withoutAddress = (text: string, canonical: string, replacement: string): string =>
  text.replace(ADDRESS_IN_TEXT, (found) => (canonicalAddress(found) === canonical ? replacement : found))

/** What is wrong with one entry of an allow or deny list (`name`), or undefined when it is an address or an @domain. */
function listEntryProblem(name: string, entry: unknown): string | undefined {
  if (typeof entry === 'string' && listEntryOf(entry) !== undefined) return undefined
  const shown = JSON.stringify(entry)
  const local = typeof entry === 'string' ? entry.slice(0, Math.max(0, entry.lastIndexOf('@'))) : ''
  if (local.includes('"'))
    return `${name}: ${shown} has a quoted local part, which mail servers deliver as the unquoted address; write that instead`
  if (/[%!]/.test(local)) return `${name}: ${shown} routes mail through another server (% or !); such addresses are refused`
  return `${name} must hold only addresses (ada@acme.com) and @domains (@acme.com); ${shown} is neither`
}

/** An entry of an allow or deny list (`ada@acme.com` or `@acme.com`) in its canonical form, as it is kept; undefined when it is neither. */
export function listEntryOf(text: string): string | undefined {
  const entry = text.trim().toLowerCase()
  if (entry.startsWith('@')) {
    const domain = entry.slice(1).normalize('NFC')
    return entry.length <= LINK_LIMITS.address && DOMAIN.test(domain) && asciiDomain(domain) !== undefined
      ? canonicalAddress(entry)
      : undefined
  }
  const address = readerAddressOf(entry)
  return address === undefined ? undefined : canonicalAddress(address)
}

/** What is wrong with a list as a client sends it (`name` is allow or deny), or undefined. */
export function readerListProblem(name: string, value: unknown): string | undefined {
  if (!Array.isArray(value)) return `${name} must be a list of addresses and @domains, e.g. ["ada@acme.com", "@acme.com"]`
  if (value.length > LINK_LIMITS.listEntries) return `${name} must have at most ${LINK_LIMITS.listEntries} entries`
  for (const entry of value) {
    const problem = listEntryProblem(name, entry)
    if (problem !== undefined) return problem
  }
  return undefined
}

/** A checked list as it is stored: its entries canonical, without repeats, one per line. */
export const storedList = (entries: readonly string[]): string => [...new Set(entries.map((entry) => listEntryOf(entry)!))].join('\n')

/** The entries of a stored list. */
export const listEntries = (stored: string): string[] => (stored === '' ? [] : stored.split('\n'))

// Entries saved since the canonical rule are canonical already (the usual ASCII ones are seen at a glance); older ones are made so here.
const CANONICAL_ASCII = /^[a-z0-9._@-]+$/
const canonicalEntry = (entry: string) => (CANONICAL_ASCII.test(entry) ? entry : canonicalAddress(entry))

const matches = (stored: string, canonical: string) => {
  if (stored === '') return false
  const domain = canonical.slice(canonical.lastIndexOf('@'))
  return listEntries(stored).some((entry) => {
    const kept = canonicalEntry(entry)
    return kept === canonical || kept === domain
  })
}

/**
 * Whether `address` may open the link: `denied` when the deny list names it or its domain (deny wins),
 * `not_allowed` when there is an allow list that names neither, else `allowed`. Compared in canonical form
 * (above): deny `intern@acme.com` keeps out intern+nda@acme.com too, allow `ada@acme.com` lets in ada+work@.
 * A domain entry matches that exact domain, not its subdomains: `@acme.com` lets in ada@acme.com, not
 * ada@eu.acme.com.
 */
export function readerVerdict(link: Pick<LinkRow, 'allowReaders' | 'denyReaders'>, address: string): 'allowed' | 'denied' | 'not_allowed' {
  const canonical = canonicalAddress(address)
  if (matches(link.denyReaders, canonical)) return 'denied'
  if (link.allowReaders !== '' && !matches(link.allowReaders, canonical)) return 'not_allowed'
  return 'allowed'
}

/** The `kind` of a mailed code in the mail outbox: erasing a reader finds the code mails to them by it. */
export const READER_CODE_MAIL = 'reader code'

/** The link asks a reader for an address before anything of the document. */
export const asksForAddress = (link: Pick<LinkRow, 'access'>): boolean => link.access !== 'open'

/** The link lets a reader in only past a gate: its password, an address to give, an agreement to accept. */
export const hasGate = (link: Pick<LinkRow, 'passwordHash' | 'access' | 'agreement'>): boolean =>
  link.passwordHash !== null || link.access !== 'open' || link.agreement !== null
