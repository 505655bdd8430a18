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

// Deliberately loose (what a person types into a form): something@something.tld, no spaces, one @.
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/
const DOMAIN = /^@[^\s@]+\.[^\s@.]+$/

/** A reader's address as it is compared and kept: trimmed and lower-case; undefined when it is not an address. */
export function readerAddressOf(text: string): string | undefined {
  const address = text.trim().toLowerCase()
  return address.length <= LINK_LIMITS.address && ADDRESS.test(address) && address.isWellFormed() ? address : undefined
}

/** An entry of an allow or deny list (`ada@acme.com` or `@acme.com`) as it is kept, or undefined when it is neither. */
export function listEntryOf(text: string): string | undefined {
  const entry = text.trim().toLowerCase()
  if (entry.startsWith('@')) return entry.length <= LINK_LIMITS.address && DOMAIN.test(entry) && entry.isWellFormed() ? entry : undefined
  return readerAddressOf(entry)
}

/** What is wrong with a list as a client sends it (`name` is allow or deny), or undefined. */
export function readerListProblem(name: string, value: unknown): string | undefined {
  if (!Array.isArray(value)) return `${name} must be a list of addresses and @domains, e.g. ["ada@acme.com", "@acme.com"]`
  if (value.length > LINK_LIMITS.listEntries) return `${name} must have at most ${LINK_LIMITS.listEntries} entries`
  for (const entry of value) {
    if (typeof entry !== 'string' || listEntryOf(entry) === undefined)
      return `${name} must hold only addresses (ada@acme.com) and @domains (@acme.com); ${JSON.stringify(entry)} is neither`
  }
  return undefined
}

/** A checked list as it is stored: its entries normalised, without repeats, one per line. */
export const storedList = (entries: readonly string[]): string => [...new Set(entries.map((entry) => listEntryOf(entry)!))].join('\n')

/** The entries of a stored list. */
export const listEntries = (stored: string): string[] => (stored === '' ? [] : stored.split('\n'))

const matches = (stored: string, address: string) => {
  if (stored === '') return false
  const domain = address.slice(address.lastIndexOf('@'))
  return listEntries(stored).some((entry) => entry === address || entry === domain)
}

/**
 * Whether `address` may open the link: `denied` when the deny list names it or its domain (deny wins),
 * `not_allowed` when there is an allow list that names neither, else `allowed`. A domain entry matches that
 * exact domain, not its subdomains: `@acme.com` lets in ada@acme.com, not ada@eu.acme.com.
 */
export function readerVerdict(link: Pick<LinkRow, 'allowReaders' | 'denyReaders'>, address: string): 'allowed' | 'denied' | 'not_allowed' {
  if (matches(link.denyReaders, address)) return 'denied'
  if (link.allowReaders !== '' && !matches(link.allowReaders, address)) return 'not_allowed'
  return 'allowed'
}

/** The link asks a reader for an address before anything of the document. */
export const asksForAddress = (link: Pick<LinkRow, 'access'>): boolean => link.access !== 'open'

/** The link lets a reader in only past a gate: its password, an address to give, an agreement to accept. */
export const hasGate = (link: Pick<LinkRow, 'passwordHash' | 'access' | 'agreement'>): boolean =>
  link.passwordHash !== null || link.access !== 'open' || link.agreement !== null
