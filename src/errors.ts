import { formatSize } from './shared/sizes'
import type { RateDecision } from './lib/rate-limiter'

/**
 * The one error family of pdfshare. Whatever a client (or a CLI user) did wrong, or could retry, is a
 * DomainError: a stable machine-readable `code` and a sentence for a person. It says nothing about HTTP: each
 * surface maps the code to its own transport (src/http/failure.ts to a status and headers, src/cli to an
 * exit code). Anything thrown that is not a DomainError is unexpected, and a client sees it as `internal`.
 *
 * Every DomainError is made here, by the factories below, so the list of what pdfshare refuses, and in
 * which words, is in one place.
 */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'second_factor_required',
  'quota_exceeded',
  'insufficient_scope',
  'reauthentication_required',
  'account_disabled',
  'password_sign_in_off',
  'account_owner_only',
  'team_owner_only',
  'sender_refused',
  'not_found',
  'team_not_found',
  'user_not_found',
  'request_closed',
  'conflict',
  'last_team_owner',
  'idempotency_key_in_use',
  'request_timeout',
  'file_too_large',
  'body_too_large',
  'not_pdf',
  'unsupported_media_type',
  'idempotency_key_reused',
  'infected',
  'rate_limited',
  'internal',
  'server_busy',
  'scan_unavailable',
  'insufficient_storage',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** What a client can act on besides the code; each surface decides how to carry it (HTTP: headers). */
export type ErrorHints = {
  /** Seconds after which the same request may succeed. */
  retryAfterSeconds?: number
  /** The state of the rate limit that refused the request. */
  rateLimit?: RateDecision
  /** The kind of credential the client should present, and what was wrong with the one it did (RFC 6750). */
  challenge?: 'Bearer' | `Bearer error="insufficient_scope", scope="${string}"`
}

export class DomainError extends Error {
  override name = 'DomainError'

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hints: ErrorHints = {},
  ) {
    super(message)
  }
}

// invalid_request: the request itself is wrong (its body, a field, a name, a range, an argument).

export const badRequest = (message: string) => new DomainError('invalid_request', message)
export const userAlreadyExists = (name: string) => new DomainError('invalid_request', `A user named ${JSON.stringify(name)} already exists`)
export const rangeNotSatisfiable = (size: number) => new DomainError('invalid_request', `Range not satisfiable: the file has ${size} bytes`)

// unauthorized: no valid credential.

/** The one text for every failed token check, whatever the reason, so a failure tells an attacker nothing. */
export const UNAUTHORIZED_MESSAGE = 'Invalid or missing API JWT token'
export const unauthorized = () => new DomainError('unauthorized', UNAUTHORIZED_MESSAGE, { challenge: 'Bearer' })
/** One answer for every failed sign-in, whatever the reason. */
export const invalidCredentials = () => new DomainError('unauthorized', 'Wrong user name or password')
/** The password was right, but the account asks for a second factor (docs/api.md, Two-factor sign-in). */
export const secondFactorRequired = () =>
  new DomainError('second_factor_required', 'Enter the code from your authenticator app, or a recovery code (send it as "code")')
/** A single sign-on's one-time handoff that was used, expired or never made. */
export const ssoHandoffNotValid = () =>
  new DomainError('unauthorized', 'This single sign-on was used already or took longer than a minute; sign in again')
/** A handoff code brought by a browser other than the one that finished the sign-in (login CSRF, or a copied link). */
export const ssoHandoffElsewhere = () =>
  new DomainError(
    'unauthorized',
    'This single sign-on was finished in another browser, or took longer than a minute; sign in again here (a sign-in link someone sent you is not yours)',
  )
/** A passkey the browser made that does not check out (a 400: the session that asked is fine). */
export const passkeyRefused = (why: string) => badRequest(`The passkey was not added: ${why}`)
/** A passkey sign-in that does not check out: a failed sign-in. */
export const passkeySignInFailed = (why: string) => new DomainError('unauthorized', `Signing in with this passkey failed: ${why}`)
/** A sign-in by proxy header on a connection that did not come from the authenticating proxy. */
export const proxyNotTrusted = () =>
  new DomainError(
    'unauthorized',
    'This request did not come from the authenticating proxy (PDFSHARE_AUTH_PROXY_ADDRESSES, and PDFSHARE_AUTH_PROXY_SECRET when set)',
  )
/** The authenticating proxy named nobody. */
export const proxySentNoUser = () => new DomainError('unauthorized', 'The authenticating proxy did not name a user')
/** Something needs mail and the server has no SMTP server. */
export const mailNotSetUp = () =>
  badRequest(
    'This server cannot send mail: PDFSHARE_SMTP_URL is not set (copy the link and send it yourself, or ask the admin to set up mail)',
  )
/** PDFSHARE_PASSWORD_SIGNIN=false: sign-in goes through single sign-on only. */
export const passwordSignInOff = () =>
  new DomainError('password_sign_in_off', 'Password sign-in is turned off on this server; use single sign-on or an API token')
/** A wrong or used second factor: a failed sign-in like a wrong password (it counts towards the sign-in limits). */
export const wrongSecondFactor = (message: string) => new DomainError('unauthorized', message)

// insufficient_scope: a valid token that may not do this (docs/api.md, Scopes).

export const insufficientScope = (scope: string, message = `This token may not do this: it needs the scope ${scope}`) =>
  new DomainError('insufficient_scope', message, { challenge: `Bearer error="insufficient_scope", scope="${scope}"` })

// reauthentication_required: changing how an account signs in needs a fresh proof (docs/sign-in.md).

/** An API token (never a sign-in's session) asked to change how its account signs in. */
export const apiTokenMayNotChangeCredentials = () =>
  new DomainError(
    'reauthentication_required',
    'An API token cannot change how its account signs in (passkeys, two-factor sign-in, the reset email): sign in to the dashboard and send your password',
  )
/** An API token (or a team's) asked to open a dashboard team session (docs/teams.md, The dashboard). */
export const teamSessionNeedsSignIn = () =>
  new DomainError(
    'reauthentication_required',
    'Only a dashboard sign-in session can open a team session; an API token for a team is issued with POST /api/tokens and "team"',
  )
/** An admin's change of how their own account signs in, through the admin routes (which take no password). */
export const ownCredentialsThroughAdmin = () =>
  new DomainError(
    'reauthentication_required',
    'Change how your own account signs in (two-factor sign-in, passkeys, single sign-on, the reset email) on your Account page, with your password',
  )
/** A session of an account with a password asked to change how it signs in without sending the password. */
export const currentPasswordRequired = () =>
  new DomainError('reauthentication_required', 'Enter your current password to change how you sign in (send it as "password")')
/** The wrong current password: a 400, not a 401, since the session itself is fine (a 401 would sign the dashboard out). */
export const wrongCurrentPassword = () => badRequest('That is not your current password')
/** A session of an account without a password whose sign-in is older than PDFSHARE_RECENT_SIGN_IN. */
export const recentSignInRequired = (minutes: number) =>
  new DomainError(
    'reauthentication_required',
    `Sign in again to change how you sign in: that needs a sign-in within the last ${minutes} minute${minutes === 1 ? '' : 's'}`,
  )

// account_disabled: an admin turned the account off.

export const accountDisabled = () => new DomainError('account_disabled', 'This account is disabled; ask an admin to enable it')

// account_owner_only: what only the account's owner may do, asked by an admin (docs/api.md, Admins).

/** An admin may remove a user's email, never set one: the address resets are mailed to opens the account. */
export const emailIsTheOwners = () =>
  new DomainError(
    'account_owner_only',
    'Only the user can set their email (on their Account page, or PUT /api/me/email, confirmed by a link mailed to it); an admin may only remove it ("email": null)',
  )

// quota_exceeded: a plan limit or the token cap.

export const quotaExceeded = (message: string) => new DomainError('quota_exceeded', message)
export const fileCountExceeded = (used: number, max: number) => quotaExceeded(`File quota exceeded: ${used} of ${max} files used`)
/** `versionBytes`: how much of `used` is previous versions of files, named because deleting them frees room. */
export const storageExceeded = (used: number, max: number, versionBytes = 0) =>
  quotaExceeded(
    `Storage quota exceeded: ${formatSize(used)} of ${formatSize(max)} used` +
      (versionBytes > 0
        ? `, ${formatSize(versionBytes)} of it by previous versions of files (deleting versions frees it: DELETE /api/files/ID/versions/VERSION_ID)`
        : ''),
  )
export const tooManyWebhooks = (cap: number) =>
  quotaExceeded(`A user may have at most ${cap} webhooks; delete one first (DELETE /api/webhooks/ID)`)
export const tooManyRequests = (cap: number) =>
  quotaExceeded(`A user may have at most ${cap} file requests; delete one first (DELETE /api/requests/ID)`)
export const tooManyTokens = (cap: number) =>
  quotaExceeded(`A user may have at most ${cap} active tokens; revoke one first (DELETE /api/tokens/ID, or pdfshare token revoke ID)`)

// not_found: unknown, or not the caller's (the two must look the same).

export const notFound = (message = 'File not found') => new DomainError('not_found', message)
export const versionNotFound = () => notFound('Version not found')
export const userNotFound = (name: string) => notFound(`No user named ${JSON.stringify(name)}`)
export const userIdNotFound = () => notFound('No such user')
export const invitationNotValid = () =>
  notFound(
    'This invitation link is not valid: it was used, revoked or has expired (an invitation lasts 7 days); ask whoever invited you for a new one',
  )
export const tokenNotFound = () => notFound('Token not found')
export const passkeyNotFound = () => notFound('Passkey not found')
export const emailChangeNotValid = () =>
  notFound('This confirmation link is not valid: it was used, replaced by a newer one or is older than 24 hours; ask for a new one')
export const resetNotValid = () =>
  notFound('This password reset link is not valid: it was used or is older than 30 minutes; ask for a new one')
export const noTokenWithId = (tokenIdOrJwt: string) => notFound(`No token with id ${JSON.stringify(tokenIdOrJwt)}`)
export const webhookNotFound = () => notFound('Webhook not found')

export const requestNotFound = () => notFound('Request not found')

// team_not_found, user_not_found: a team the caller is not a member of (or none), a member to add who has no account.

export const teamNotFound = () => new DomainError('team_not_found', 'Team not found')
export const memberNotFound = () => new DomainError('team_not_found', 'No such member in this team')
export const noAccountFor = (who: string) =>
  new DomainError('user_not_found', `No account named ${JSON.stringify(who)} (or with that email); they need an account first`)

// team_owner_only: what only a team's owners may do (docs/teams.md, Roles).

export const teamOwnerOnly = (what: string) => new DomainError('team_owner_only', `Only an owner of the team may ${what}`)

// last_team_owner: a team keeps at least one owner.

export const lastTeamOwner = () =>
  new DomainError('last_team_owner', 'A team keeps at least one owner: make another member an owner first, or delete the team')

// request_closed: a file request takes no more files (turned off, expired, or all its files received).
const CLOSED_WORDS = { disabled: 'has been turned off', expired: 'has expired', full: 'has received all the files it asked for' } as const
export const requestClosed = (state: keyof typeof CLOSED_WORDS) =>
  new DomainError('request_closed', `This file request ${CLOSED_WORDS[state]}; nothing was stored`)

// sender_refused: a file request's gate has not let this sender in (its password, an address it does not take).
export const senderRefused = (why: string) => new DomainError('sender_refused', `${why}; nothing was stored`)
/** The owner's storage cannot take the file: the sender learns nothing of the owner's quota. */
export const requestOwnerFull = () =>
  new DomainError('insufficient_storage', 'This file request cannot take more files right now; nothing was stored')

// conflict: the request cannot apply to the resource as it is now.

export const conflict = (message: string) => new DomainError('conflict', message)
export const currentVersionNotDeletable = () =>
  conflict('This is the current version of the file; restore another version first, or delete the file')
export const defaultLinkCannotBeDeleted = () => conflict('The default link of a file cannot be deleted; disable it, or delete the file')
export const ssoLinkNotAsked = () =>
  conflict('No admin asked for a single sign-on link with this email on your account (or it was changed since); reload and look again')
export const lastAdmin = () => conflict('This would leave the server without an enabled admin; make another user an admin first')
export const fileKeptChanging = (times: number) =>
  conflict(`The file changed ${times} times while this request waited for its turn (other replacements or restores); send it again`)

// idempotency_key_in_use, idempotency_key_reused: a retry under an Idempotency-Key (docs/api.md, Retrying writes).

/** Another request with this key is still being worked on (its lease ends in `seconds` at most). */
export const idempotencyKeyInUse = (seconds: number) =>
  new DomainError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; send it again after Retry-After to get its answer',
    { retryAfterSeconds: seconds },
  )
/** The key was first sent with another request: `how` says what differs (another method and path, another body). */
export const idempotencyKeyReused = (how: string) =>
  new DomainError(
    'idempotency_key_reused',
    `This Idempotency-Key was used for a different request (${how}); use a new key for a new request`,
  )

// request_timeout, file_too_large, body_too_large, not_pdf, unsupported_media_type: an upload or body refused.

export const uploadTooSlow = (why: string) => new DomainError('request_timeout', `Upload stopped: ${why}; nothing was stored`)
export const fileTooLarge = (maxBytes: number) => new DomainError('file_too_large', `File exceeds the ${formatSize(maxBytes)} limit`)
export const jsonBodyTooLarge = (maxBytes: number) =>
  new DomainError('body_too_large', `JSON body exceeds the ${formatSize(maxBytes)} limit`)
export const notPdf = (message: string) => new DomainError('not_pdf', message)
export const logoTooLarge = (maxBytes: number) => new DomainError('file_too_large', `The logo must be at most ${formatSize(maxBytes)}`)
export const SVG_REFUSAL = 'SVG is not accepted, since an SVG file is a document that can carry scripts and links: save it as a PNG'
/** A logo that is not a picture of a kind pdfshare takes: `what` says what it is instead. */
export const notALogo = (what: string) => badRequest(`The logo must be a PNG, JPEG or WebP image; ${what}`)
export const unsupportedMediaType = (message: string) => new DomainError('unsupported_media_type', message)

// infected: clamd found a signature in a received PDF (docs/operations.md, Virus scanning).

export const infected = (signature: string) =>
  new DomainError('infected', `The PDF was refused: the virus scanner found ${signature} in it; nothing was stored`)

// rate_limited and server_busy: try again later (the hints say when).

export const rateLimited = (decision: RateDecision) =>
  new DomainError('rate_limited', `Too many requests; retry in ${decision.resetSeconds} s`, {
    rateLimit: decision,
    retryAfterSeconds: decision.resetSeconds,
  })
export const tooManyUploadsForUser = (perUser: number) =>
  new DomainError(
    'rate_limited',
    `Too many uploads in progress for this account (at most ${perUser} at once); retry when one has finished`,
    {
      retryAfterSeconds: 5,
    },
  )
export const uploadsBusy = () =>
  new DomainError('server_busy', 'The server is handling as many uploads as it accepts at once; retry shortly', { retryAfterSeconds: 5 })
/** The argon2 queue is full (sign-ins, new passwords, share-link unlocks: one queue for all of them). */
export const passwordsBusy = () =>
  new DomainError('server_busy', 'Too many passwords are being checked at once; retry in a moment', { retryAfterSeconds: 1 })
/** clamd could not scan a received PDF (down, too slow, an error) and the upload may not be stored unscanned. */
export const scanUnavailable = () =>
  new DomainError('scan_unavailable', 'The virus scanner cannot check this PDF right now; nothing was stored. Retry in a moment', {
    retryAfterSeconds: 30,
  })
/** Another process (a CLI command, a backup) held the database's write lock past the busy timeout. */
export const databaseBusy = () => new DomainError('server_busy', 'The database is busy; retry in a moment', { retryAfterSeconds: 1 })
/** The S3 store did not answer in time, or answered that it cannot serve now: nothing was stored or read. */
export const storeUnavailable = () =>
  new DomainError('server_busy', 'The file store is not answering; nothing was stored. Retry in a moment', { retryAfterSeconds: 5 })
export const snapshotsKeptChanging = (attempts: number) =>
  new DomainError('server_busy', `files kept changing during ${attempts} snapshots; try the backup again`)

// insufficient_storage: the disk is (or would be) too full.

export const insufficientStorage = (detail: string) =>
  new DomainError('insufficient_storage', `Not enough disk space to store this upload: ${detail}`)
export const diskFull = () => new DomainError('insufficient_storage', 'Not enough disk space on the server to complete this request')

// internal: everything else. Its text never says more, whatever happened.

export const internalError = () => new DomainError('internal', 'Internal server error')
