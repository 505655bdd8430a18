import { isIP } from 'node:net'
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm'
import type { Config } from '../../config'
import type { AppContext } from '../context'
import type { PasskeyRow, UserRow } from '../../db/tables'
import { accountDisabled, badRequest, passkeyNotFound, passkeyRefused, passkeySignInFailed } from '../../errors'
import type { Reauthenticated } from './reauthenticate'

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a user adds them from the Account page and signs in with
 * one alone, no password and no code: the authenticator holds the key and checks the user (PIN or biometrics,
 * `userVerification: required`), which is two factors by itself. The relying party is PDFSHARE_PUBLIC_URL.
 * Adding and removing one take a `Reauthenticated` owner (a session and the password: reauthenticate.ts): a passkey
 * is a sign-in with every scope, so a token that may not do everything must never make one.
 */

const CHALLENGE_MS = 5 * 60_000
export const MAX_PASSKEYS = 20

type RelyingParty = { id: string; origin: string }

/** The relying party, or why there is none: browsers offer passkeys only to a domain name over HTTPS, or localhost. */
export function relyingParty(config: Config): RelyingParty | string {
  const url = new URL(config.publicUrl)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) !== 0) {
    return `Passkeys need pdfshare at a domain name (PDFSHARE_PUBLIC_URL is ${config.publicUrl}, an IP address): browsers bind a passkey to a domain`
  }
  if (url.protocol !== 'https:' && host !== 'localhost') {
    return `Passkeys need HTTPS (PDFSHARE_PUBLIC_URL is ${config.publicUrl}): browsers offer them only on https:// addresses and on localhost`
  }
  return { id: host, origin: url.origin }
}
function requireRelyingParty(config: Config): RelyingParty {
  const party = relyingParty(config)
  if (typeof party === 'string') throw badRequest(party)
  return party
}

async function newChallenge(ctx: AppContext, challenge: string, userId: string | null): Promise<void> {
  const { webauthnChallenges } = ctx.db.tables
  await ctx.db.orm.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, ctx.now())) // the ones never answered
  await ctx.db.orm.insert(webauthnChallenges).values({ challenge, userId, expiresAt: ctx.now() + CHALLENGE_MS })
}

/** Takes a challenge handed out to `userId` (null: a sign-in), once: deleted in the same statement. */
async function takeChallenge(ctx: AppContext, challenge: string, userId: string | null): Promise<boolean> {
  const { webauthnChallenges } = ctx.db.tables
  const [taken] = await ctx.db.orm
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, ctx.now()),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge })
  return taken !== undefined
}

export async function listPasskeys(ctx: AppContext, userId: string): Promise<PasskeyRow[]> {
  const { passkeys } = ctx.db.tables
  return ctx.db.orm.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt))
}

/** The options the browser's `navigator.credentials.create` needs to make a passkey for this user. */
export async function registrationOptions(ctx: AppContext, owner: Reauthenticated): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { user } = owner
  const party = requireRelyingParty(ctx.config)
  const existing = await listPasskeys(ctx, user.id)
  if (existing.length >= MAX_PASSKEYS) throw badRequest(`An account holds at most ${MAX_PASSKEYS} passkeys; remove one first`)
  const options = await generateRegistrationOptions({
    rpName: 'pdfshare',
    rpID: party.id,
    userName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({ id: key.id, transports: key.transports?.split(',') })),
    // A passkey the browser can offer by itself (no user name typed), and that checks the user.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  })
  await newChallenge(ctx, options.challenge, user.id)
  return options
}

/** Keeps the passkey the browser made with the options above, once it checks out. */
export async function addPasskey(
  ctx: AppContext,
  input: { owner: Reauthenticated; response: RegistrationResponseJSON; name: string },
): Promise<PasskeyRow> {
  const { user } = input.owner
  const party = requireRelyingParty(ctx.config)
  const verified = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: (challenge) => takeChallenge(ctx, challenge, user.id),
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw passkeyRefused(error instanceof Error ? error.message : String(error))
  })
  if (!verified.verified) throw passkeyRefused('the browser’s answer did not verify')
  const { credential } = verified.registrationInfo
  const { passkeys } = ctx.db.tables
  const [row] = await ctx.db.orm
    .insert(passkeys)
    .values({
      id: credential.id,
      userId: user.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports?.join(',') ?? null,
      name: input.name,
      createdAt: ctx.now(),
      lastUsedAt: null,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) throw passkeyRefused('this passkey is registered already')
  return row
}

export async function removePasskey(ctx: AppContext, input: { owner: Reauthenticated; id: string }): Promise<PasskeyRow> {
  const { passkeys } = ctx.db.tables
  const [removed] = await ctx.db.orm
    .delete(passkeys)
    .where(and(eq(passkeys.id, input.id), eq(passkeys.userId, input.owner.user.id)))
    .returning()
  if (!removed) throw passkeyNotFound()
  return removed
}

/** The options for `navigator.credentials.get`: any passkey of this site (the browser lists the user's own). */
export async function signInOptions(ctx: AppContext): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const party = requireRelyingParty(ctx.config)
  const options = await generateAuthenticationOptions({ rpID: party.id, userVerification: 'required' })
  await newChallenge(ctx, options.challenge, null)
  return options
}

/** The user a passkey's answer signs in: a known passkey, a challenge of ours used once, the user checked by the authenticator. */
export async function signInWithPasskey(ctx: AppContext, response: AuthenticationResponseJSON): Promise<UserRow> {
  const party = requireRelyingParty(ctx.config)
  const { passkeys, users } = ctx.db.tables
  const [found] = await ctx.db.orm
    .select({ passkey: passkeys, user: users })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.id, String(response.id)))
  if (!found) throw passkeySignInFailed('this passkey is not registered here (it may have been removed)')
  const { passkey, user } = found
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: (challenge) => takeChallenge(ctx, challenge, null),
    expectedOrigin: party.origin,
    expectedRPID: party.id,
    credential: {
      id: passkey.id,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: passkey.counter,
      transports: passkey.transports?.split(',') as never,
    },
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw passkeySignInFailed(error instanceof Error ? error.message : String(error))
  })
  if (!verified.verified) throw passkeySignInFailed('the browser’s answer did not verify')
  if (user.disabledAt !== null) throw accountDisabled()
  await ctx.db.orm
    .update(passkeys)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: ctx.now() })
    .where(eq(passkeys.id, passkey.id))
  return user
}

/** Removes every passkey of a user (an admin's reset after a lost device); how many there were. */
export async function removeAllPasskeys(ctx: AppContext, userId: string): Promise<number> {
  const { passkeys } = ctx.db.tables
  return (await ctx.db.orm.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id })).length
}
