import type { Configuration } from 'openid-client'
import type { Config } from '../../../config'

/**
 * The OpenID Connect provider, through openid-client (a well-kept, certified relying party): discovery, the
 * authorization-code flow with PKCE, `state` and `nonce`, and every check of the ID token (signature, issuer,
 * audience, expiry, nonce). Nothing here checks a token by hand.
 */

/** What a sign-in that was started keeps (in a signed cookie) until the provider sends the browser back. */
export type PendingSignIn = { state: string; nonce: string; verifier: string }

/** What pdfshare reads of a verified ID token (and the userinfo answer, when the provider has one). */
export type SsoClaims = {
  issuer: string
  subject: string
  email: string | undefined
  emailVerified: boolean
  preferredName: string | undefined
  groups: string[]
  /** Whether the provider sent a groups claim at all: without one, the teams the groups map to are left as they are. */
  groupsSent: boolean
}

export type SsoProvider = {
  /** The button's words: "Sign in with <name>". */
  name: string
  /** Where to send the browser, and what to keep until it comes back. */
  start(): Promise<{ url: URL; pending: PendingSignIn }>
  /** The provider's answer (the callback's address) checked against what was kept; throws when anything is off. */
  finish(callback: URL, pending: PendingSignIn): Promise<SsoClaims>
}

export const callbackUrl = (publicUrl: string) => `${publicUrl}/auth/oidc/callback`

/** The configured provider, or undefined without PDFSHARE_OIDC_ISSUER. Discovery happens at the first sign-in (and again after a failure). */
export function ssoProvider(config: Config): SsoProvider | undefined {
  const { oidcIssuer: issuer, oidcClientId: clientId, oidcClientSecret: clientSecret } = config
  if (issuer === undefined || clientId === undefined) return undefined
  const redirectUri = callbackUrl(config.publicUrl)
  const wantsGroups = config.oidcAdminGroup !== undefined || config.oidcTeamGroups.length > 0
  const scope = ['openid', 'email', 'profile', ...(wantsGroups ? ['groups'] : [])].join(' ')
  let discovered: Promise<Configuration> | undefined
  const configuration = () => {
    discovered ??= openidClient()
      .then((oidc) =>
        oidc.discovery(new URL(issuer), clientId, clientSecret, clientSecret === undefined ? oidc.None() : undefined, {
          // Plain http is accepted only for an issuer on this machine or the LAN that the admin configured as such.
          execute: new URL(issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
          timeout: 10,
        }),
      )
      .catch((error: unknown) => {
        discovered = undefined // the provider may be back for the next sign-in
        throw error
      })
    return discovered
  }

  return {
    name: config.oidcName,
    async start() {
      const [server, oidc] = await Promise.all([configuration(), openidClient()])
      const pending = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() }
      const url = oidc.buildAuthorizationUrl(server, {
        redirect_uri: redirectUri,
        scope,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      })
      return { url, pending }
    },
    async finish(callback, pending) {
      const [server, oidc] = await Promise.all([configuration(), openidClient()])
      // `callback` is built on PDFSHARE_PUBLIC_URL, so the redirect_uri sent with the code is the one the flow started with.
      const tokens = await oidc.authorizationCodeGrant(server, callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      })
      const claims = tokens.claims()
      if (!claims) throw new Error('the provider answered without an ID token')
      // Email and groups may be only in the userinfo answer (Keycloak, Authentik put them in both; others vary).
      const userinfo = server.serverMetadata().userinfo_endpoint
        ? await oidc.fetchUserInfo(server, tokens.access_token, claims.sub)
        : undefined
      const all: Record<string, unknown> = { ...userinfo, ...claims }
      const email = typeof all.email === 'string' ? all.email.toLowerCase() : undefined
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        emailVerified: email !== undefined && (all.email_verified === true || all.email_verified === 'true'),
        preferredName: typeof all.preferred_username === 'string' ? all.preferred_username : undefined,
        groups: Array.isArray(all.groups) ? all.groups.filter((group): group is string => typeof group === 'string') : [],
        groupsSent: Array.isArray(all.groups),
      }
    },
  }
}

/** openid-client, loaded at the first sign-in: a server without single sign-on never holds it in memory. */
const openidClient = () => import('openid-client')

/** What went wrong with a provider's answer, in words for the refusal page: the ID token claim that failed, when one did. */
export function ssoFailureText(error: unknown): string {
  const message = error instanceof Error ? error.message : 'unknown error'
  // openid-client wraps the check's own error, whose cause names the claim: follow the chain to it.
  for (let cause: unknown = error, depth = 0; cause instanceof Object && depth < 4; depth++) {
    const claim = (cause as { claim?: unknown }).claim
    if (typeof claim === 'string') return `the ID token failed a check of its "${claim}" claim: ${message}`
    cause = (cause as { cause?: unknown }).cause
  }
  return message
}
