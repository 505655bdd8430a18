import type { Config } from '../../config'
import { badRequest } from '../../errors'
import { formatTtl } from '../../lib/durations'
import { LINK_LIMITS } from '../../shared/link-shapes'
import type { LinkRow } from '../../db/tables'
import type { LinkInput } from './link-input'

/**
 * The instance policy on share links (PDFSHARE_LINK_DEFAULT_EXPIRY, _MAX_EXPIRY, _REQUIRE_PASSWORD), and the
 * rule that an expiry lies in the future. It applies to what a request sets: a new link (POST or upload) and
 * the fields a PATCH sends. Links that exist are never changed when the policy changes.
 */
export type LinkPolicy = Pick<Config, 'linkDefaultExpiry' | 'linkMaxExpiry' | 'linkRequirePassword' | 'smtpUrl'>

/** The expiry a new link gets: the one sent, else now + the default expiry, else never; refused beyond the policy. */
export function expiryOfNewLink(policy: LinkPolicy, now: number, sent: number | null | undefined): number | null {
  const expiresAt = sent === undefined && policy.linkDefaultExpiry !== null ? now + policy.linkDefaultExpiry * 1000 : (sent ?? null)
  if (sent !== undefined) checkExpiry(policy, now, expiresAt)
  else checkWithinMaximum(policy, now, expiresAt)
  return expiresAt
}

/** A PATCH that sends expiresAt (null clears it): in the future, within the maximum. */
export function checkExpiryChange(policy: LinkPolicy, now: number, sent: number | null): void {
  checkExpiry(policy, now, sent)
}

/** A new link must have a password when the policy says so. */
export function checkPasswordOfNewLink(policy: LinkPolicy, input: Pick<LinkInput, 'password'>): void {
  if (policy.linkRequirePassword && (input.password === undefined || input.password === null))
    throw badRequest(
      `This server requires a password on every share link: send a password (${LINK_LIMITS.passwordMin} to ${LINK_LIMITS.passwordMax} characters)`,
    )
}

/** A PATCH may change a password but, under the policy, not remove it. */
export function checkPasswordChange(policy: LinkPolicy, input: Pick<LinkInput, 'password'>): void {
  if (policy.linkRequirePassword && input.password === null)
    throw badRequest('This server requires a password on every share link: it can be changed, not removed')
}

/**
 * Who may open a link, as it will be once the request is applied: allow and deny lists only mean something
 * when the link asks for an address (an `open` link with a list would look guarded and be open to all), and
 * codes need a mail server.
 */
export function checkReaderRules(policy: LinkPolicy, link: Pick<LinkRow, 'access' | 'allowReaders' | 'denyReaders'>): void {
  if (link.access === 'open' && (link.allowReaders !== '' || link.denyReaders !== ''))
    throw badRequest(
      'allow and deny apply to links that ask for an address: send access "email" or "verified-email" with them, or empty them (allow: [], deny: [])',
    )
  if (link.access === 'verified-email' && policy.smtpUrl === undefined)
    throw badRequest(
      'access "verified-email" mails each reader a code, and this server has no mail server: set PDFSHARE_SMTP_URL, or use access "email"',
    )
}

function checkExpiry(policy: LinkPolicy, now: number, expiresAt: number | null): void {
  if (expiresAt !== null && expiresAt <= now) throw badRequest('expiresAt must be in the future; to end a link now, disable it')
  checkWithinMaximum(policy, now, expiresAt)
}

function checkWithinMaximum(policy: LinkPolicy, now: number, expiresAt: number | null): void {
  if (policy.linkMaxExpiry === null) return
  const latest = now + policy.linkMaxExpiry * 1000
  const max = formatTtl(policy.linkMaxExpiry)
  if (expiresAt === null)
    throw badRequest(
      `This server requires every share link to expire within ${max}: send an expiresAt before ${new Date(latest).toISOString()}`,
    )
  if (expiresAt > latest)
    throw badRequest(`This server allows share links to live at most ${max}: expiresAt must be before ${new Date(latest).toISOString()}`)
}
