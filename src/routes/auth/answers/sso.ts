import { Elysia } from 'elysia'
import type { AppContext } from '../../../core/context'
import { ANONYMOUS, recordAudit } from '../../../core/audit/record'
import { HANDOFF_MS, handOff } from '../../../core/accounts/sso/handoff'
import { type PendingSignIn, type SsoProvider, ssoFailureText, ssoProvider } from '../../../core/accounts/sso/provider'
import { type SsoRefusal, ssoSignIn } from '../../../core/accounts/sso/sign-in'
import { clientGroupOf } from '../../../http/client-ip'
import { cookieValues, setCookieHeader } from '../../../lib/cookies'
import { html } from '../../../lib/html'
import { isSignedValue, signedValue } from '../../../lib/signed-value'
import type { SignInStarts } from '../../../core/accounts/sign-in-starts'

/** How long a started sign-in may take at the provider (typing a password, a second factor there). */
const PENDING_MS = 10 * 60_000
const COOKIE = 'pdfshare_oidc'
/** The finished sign-in's half that stays in the browser (core/accounts/sso/handoff.ts): sent only to POST /api/auth/sso. */
export const HANDOFF_COOKIE = 'pdfshare_sso'
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const REFUSALS: Record<SsoRefusal, (email: string | undefined) => string> = {
  disabled: () => 'This account is disabled on this server. Ask an admin to enable it.',
  unverified: () =>
    'The sign-in provider did not confirm your email address, so it cannot be matched to an account here. Verify the address with the provider, or ask an admin.',
  not_allowed: (email) => `${email ?? 'This account'} may not sign in to this server. Ask an admin to invite you or to allow your address.`,
  not_one_address: (email) =>
    `The sign-in provider gave "${email}", which is not a single email address, so it cannot be matched to an account here. Ask an admin.`,
  link_waiting: (email) =>
    `An admin asked that signing in as ${email ?? 'this account'} open an existing account here, and that account is in use: the link waits for the account’s owner to allow it on their Account page.`,
}

/** The refusal's reason in the audit log. */
const REFUSAL_REASONS: Record<SsoRefusal, string> = {
  disabled: 'disabled',
  unverified: 'unverified',
  not_allowed: 'not allowed',
  not_one_address: 'not one email address',
  link_waiting: 'link waiting',
}

/** The pending sign-in as a cookie value: its three values and their signature with the server key (nothing kept on the server). */
function pendingCookie(key: Uint8Array, pending: PendingSignIn, expiry: number): string {
  return [
    pending.state,
    pending.nonce,
    pending.verifier,
    signedValue(key, ['oidc', pending.state, pending.nonce, pending.verifier], expiry),
  ].join('.')
}
function pendingOf(key: Uint8Array, cookieHeader: string | null, now: number): PendingSignIn | undefined {
  for (const value of cookieValues(cookieHeader, COOKIE)) {
    const [state, nonce, verifier, expiry, mac] = value.split('.')
    if (!state || !nonce || !verifier || !expiry || !mac) continue
    if (isSignedValue(key, ['oidc', state, nonce, verifier], `${expiry}.${mac}`, now)) return { state, nonce, verifier }
  }
  return undefined
}

/** Where the handoff cookie lives: the one route that takes it, for as long as its code works. */
export function handoffCookie(publicUrl: string) {
  const basePath = new URL(publicUrl).pathname.replace(/\/$/, '')
  return { path: `${basePath}/api/auth/sso`, secure: publicUrl.startsWith('https:'), lifetimeMs: HANDOFF_MS }
}

/**
 * Single sign-on pages (docs/sign-in.md): /auth/oidc/login sends the browser to the provider, /auth/oidc/callback
 * takes it back. A sign-in that gets in ends on /app#/sso/<one-time code>, which the dashboard exchanges for its
 * session (POST /api/auth/sso); every refusal is a page that says why, with no session.
 */
export function ssoPages(ctx: AppContext, starts: SignInStarts) {
  const provider: SsoProvider | undefined = ssoProvider(ctx.config)
  const basePath = new URL(ctx.config.publicUrl).pathname.replace(/\/$/, '')
  const cookie = { path: `${basePath}/auth/oidc`, secure: ctx.config.publicUrl.startsWith('https:') }
  const hidden = { detail: { hide: true } }

  const page = (
    set: { status?: number | string; headers: Record<string, string | number> },
    status: number,
    title: string,
    text: string,
    headers: Record<string, string> = {},
  ) => {
    set.status = status
    Object.assign(set.headers, headers, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PAGE_CSP,
      'cache-control': 'no-store',
      'set-cookie': setCookieHeader(COOKIE, 'gone', { ...cookie, lifetimeMs: 0 }),
    })
    return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} · pdfshare</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><main><h1>${title}</h1><p>${text}</p><p><a href="${basePath}/app">Back to sign-in</a></p></main></body></html>
`.value
  }

  return new Elysia({ name: 'sso-pages' })
    .get(
      '/auth/oidc/login',
      async ({ set }) => {
        if (!provider) return page(set, 404, 'Single sign-on is not set up', 'This server has no single sign-on; sign in with a password.')
        try {
          const { url, pending } = await provider.start()
          set.headers['set-cookie'] = setCookieHeader(COOKIE, pendingCookie(ctx.signingKey, pending, ctx.now() + PENDING_MS), {
            ...cookie,
            lifetimeMs: PENDING_MS,
          })
          set.headers['cache-control'] = 'no-store'
          set.headers.location = url.href
          set.status = 302
          return ''
        } catch (error) {
          ctx.log.info(`single sign-on: the provider could not be reached: ${String(error)}`)
          return page(set, 502, 'The sign-in provider cannot be reached', `${provider.name} did not answer. Try again in a moment.`)
        }
      },
      hidden,
    )
    .get(
      '/auth/oidc/callback',
      async ({ request, server, set }) => {
        if (!provider) return page(set, 404, 'Single sign-on is not set up', 'This server has no single sign-on; sign in with a password.')
        const address = clientGroupOf(request, server, ctx.config.trustProxyHops)
        const counted = await starts.ssoReturn(address)
        if ('retryAfterSeconds' in counted) {
          const wait = counted.retryAfterSeconds
          return page(
            set,
            429,
            'Too many sign-in attempts',
            `Too many sign-ins from your network failed in the last minute. Try again in ${wait} s.`,
            {
              'retry-after': String(wait),
            },
          )
        }
        const failed = async (reason: string) =>
          recordAudit(ctx, {
            action: 'sign_in.failed',
            actor: { via: 'api', userId: null, name: ANONYMOUS, address },
            userId: null,
            detail: { method: 'sso', name: null, reason },
          })
        const pending = pendingOf(ctx.signingKey, request.headers.get('cookie'), ctx.now())
        if (!pending) {
          if (await starts.noteUnstarted(address)) await failed('no sign-in started in this browser')
          return page(
            set,
            400,
            'Sign-in failed',
            'This sign-in was not started in this browser, or took longer than 10 minutes. Start again.',
          )
        }
        let claims: Awaited<ReturnType<SsoProvider['finish']>>
        try {
          // The provider's answer is in the query; the address is ours, as the provider was told (PDFSHARE_PUBLIC_URL).
          claims = await provider.finish(new URL(`${ctx.config.publicUrl}/auth/oidc/callback${new URL(request.url).search}`), pending)
        } catch (error) {
          const code = (error as { code?: unknown }).code
          ctx.log.info(`single sign-on refused: ${String(error)}${typeof code === 'string' ? ` (${code})` : ''}`)
          await failed(`the provider's answer did not check out${typeof code === 'string' ? ` (${code})` : ''}`)
          return page(
            set,
            400,
            'Sign-in failed',
            `The answer from ${provider.name} could not be verified (${ssoFailureText(error)}). Start again.`,
          )
        }
        const outcome = await ssoSignIn(ctx, claims)
        if ('refused' in outcome) {
          await failed(REFUSAL_REASONS[outcome.refused])
          return page(set, 403, 'Not allowed', REFUSALS[outcome.refused](outcome.email))
        }
        const { user } = outcome
        const actor = { via: 'api' as const, userId: user.id, name: user.name, address }
        if (outcome.created) {
          await recordAudit(ctx, {
            action: 'user.added',
            actor,
            userId: user.id,
            detail: { name: user.name, admin: user.isAdmin, via: 'sso' },
          })
        }
        if (outcome.adminChanged !== undefined) {
          await recordAudit(ctx, {
            action: 'user.admin_set',
            actor,
            userId: user.id,
            detail: { name: user.name, admin: outcome.adminChanged, via: 'sso group' },
          })
        }
        for (const change of outcome.teamChanges) {
          // In the user's log and, by its teamId, the team's (docs/teams.md, Single sign-on groups).
          await recordAudit(ctx, {
            action: change.was === null ? 'team.member_added' : change.role === null ? 'team.member_removed' : 'team.member_changed',
            actor,
            userId: user.id,
            detail: {
              teamId: change.teamId,
              userId: user.id,
              name: user.name,
              role: change.role,
              was: change.was,
              via: 'sso group',
              group: change.group,
            },
          })
        }
        const { code, browser } = await handOff(ctx, user.id)
        await counted.signedIn()
        // This browser's pending sign-in checked out above: the handoff's cookie goes to it alone.
        set.headers['set-cookie'] = [
          setCookieHeader(COOKIE, 'gone', { ...cookie, lifetimeMs: 0 }),
          setCookieHeader(HANDOFF_COOKIE, browser, handoffCookie(ctx.config.publicUrl)),
        ]
        set.headers['cache-control'] = 'no-store'
        set.headers.location = `${basePath}/app#/sso/${code}`
        set.status = 303
        return ''
      },
      hidden,
    )
}
